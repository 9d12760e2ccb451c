import type { MailMessage } from '../mail/mail.service';
import type { ExecutionOutcome } from '../runs/runs.service';

export interface AlertRecipient {
  email: string;
  jobName: string;
  jobUrl: string;
  /** The job's alert_after_failures: the failure mail says how many runs failed in a row when it waited for more than one. */
  alertAfterFailures: number;
}

function cause(outcome: ExecutionOutcome): string {
  return outcome.errorMessage ?? (outcome.responseCode ? `HTTP ${outcome.responseCode}` : 'unknown error');
}

/** The email that opens a failure episode: what failed, why, after how many attempts. */
export function failureMail(to: AlertRecipient, outcome: ExecutionOutcome, dashboardUrl: string): MailMessage {
  const attempts = outcome.attempt > 1 ? ` after ${outcome.attempt} attempts` : '';
  return {
    to: to.email,
    subject: `Cronbeam: job "${to.jobName}" failed`,
    text: [
      `Your job "${to.jobName}" failed${attempts}.${to.alertAfterFailures > 1 ? ` That makes ${to.alertAfterFailures} failed runs in a row.` : ''}`,
      '',
      `Target: ${to.jobUrl}`,
      `Scheduled for: ${outcome.scheduledFor.toISOString()}`,
      `Executed at: ${outcome.executedAt.toISOString()}`,
      `Cause: ${cause(outcome)}`,
      '',
      `You will get one more email when the job succeeds again. Logs: ${dashboardUrl}`,
    ].join('\n'),
  };
}

/** The email that closes a failure episode. */
export function recoveryMail(to: AlertRecipient, outcome: ExecutionOutcome, dashboardUrl: string): MailMessage {
  return {
    to: to.email,
    subject: `Cronbeam: job "${to.jobName}" recovered`,
    text: [
      `Your job "${to.jobName}" succeeded again at ${outcome.executedAt.toISOString()} (HTTP ${outcome.responseCode}).`,
      '',
      `Target: ${to.jobUrl}`,
      `Logs: ${dashboardUrl}`,
    ].join('\n'),
  };
}

/** The email saying a job paused itself after its consecutive failures. */
export function autoPauseMail(to: AlertRecipient, failures: number, dashboardUrl: string): MailMessage {
  return {
    to: to.email,
    subject: `Cronbeam: job "${to.jobName}" paused after ${failures} failed runs`,
    text: [
      `Your job "${to.jobName}" failed ${failures} times in a row and has been paused, as its auto-pause setting asks.`,
      '',
      `Target: ${to.jobUrl}`,
      '',
      `It stays paused until you resume it. Logs: ${dashboardUrl}`,
    ].join('\n'),
  };
}
