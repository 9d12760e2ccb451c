import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { concatMap, filter, type Subscription } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { AlertChannelsService } from '../alert-channels/alert-channels.service';
import { TeamsService } from '../teams/teams.service';
import { JobsService } from '../jobs/jobs.service';
import { MaintenanceWindowsService } from '../maintenance/maintenance-windows.service';
import { MailService } from '../mail/mail.service';
import { RunsService, type ExecutionOutcome } from '../runs/runs.service';
import { mutedNote } from '@cronbeam/shared/notifications/maintenance-windows';
import { autoPauseMail, failureMail, recoveryMail, type AlertRecipient } from './failure-alert-mail';
import { JobAlertStatesRepository } from './job-alert-states.repository';

/**
 * Failure alerts for jobs with notify_on_failure: one email when a failure
 * episode starts (the job's alert_after_failures-th failed run in a row; a
 * run fails when no retry is left), none for its retries or further
 * failures, and one when the job succeeds again. The count and the episode
 * flag change atomically in the database, so two instances never both send.
 */
@Injectable()
export class FailureAlerts implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FailureAlerts.name);
  private subscription: Subscription | null = null;

  constructor(
    private readonly alertStates: JobAlertStatesRepository,
    private readonly runs: RunsService,
    private readonly jobs: JobsService,
    private readonly teams: TeamsService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly channels: AlertChannelsService,
    private readonly maintenance: MaintenanceWindowsService,
  ) {}

  onModuleInit(): void {
    this.subscription = this.runs.outcomes$
      .pipe(
        filter((o) => o.notifyOnFailure && !o.willRetry),
        concatMap((o) => this.handle(o)),
      )
      .subscribe();
    // A job that paused itself after its failures tells its owner so, whether or not it alerts on failures.
    this.subscription.add(
      this.jobs.changes$
        .pipe(
          filter((c) => c.autoPausedAfter !== undefined),
          concatMap((c) => this.autoPaused(c.accountId, c.jobId, c.autoPausedAfter!)),
        )
        .subscribe(),
    );
  }

  private async autoPaused(accountId: string, jobId: string, failures: number): Promise<void> {
    try {
      const recipient = await this.recipient(accountId, jobId);
      if (!recipient) return;
      await this.mail.send(autoPauseMail(recipient, failures, `${this.config.publicUrl}/dashboard`));
      // Within an open episode the pause belongs to it (PagerDuty adds it to the incident the failure opened).
      const episode = await this.alertStates.openEpisode(jobId);
      this.toChannels(accountId, jobId, {
        ...(episode ? { episodeId: episode.id, episodeStartedAt: episode.startedAt } : {}),
        event: 'auto_paused',
        jobName: recipient.jobName,
        jobUrl: recipient.jobUrl,
        detail: `Paused after ${failures} failed runs in a row; it stays paused until resumed.`,
        at: new Date(),
      });
    } catch (error) {
      this.logger.warn(`Auto-pause alert for job ${jobId} not sent: ${(error as Error).message}`);
    }
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  private async handle(outcome: ExecutionOutcome): Promise<void> {
    try {
      const failed = outcome.status === 'failed';
      // A failure needs the job's threshold (and its names); a success reads nothing unless it ends an episode.
      const known = failed ? await this.recipient(outcome.accountId, outcome.jobId) : null;
      if (failed && !known) return;
      // A failure inside a maintenance window neither alerts nor counts toward the threshold; its log line says which window muted it.
      // A success is never muted: it may close an episode opened before the window (a PagerDuty incident resolves).
      const muted = failed ? await this.maintenance.muting(outcome.accountId, { job_id: outcome.jobId, tags: known!.tags }, outcome.executedAt) : null;
      if (muted) {
        await this.runs.noteAlert(outcome.runId, outcome.scheduledFor, mutedNote(muted.name));
        return;
      }
      const episode = failed ? await this.alertStates.markFailed(outcome.jobId, known!.alertAfterFailures) : await this.alertStates.markRecovered(outcome.jobId);
      if (!episode) return;
      const recipient = known ?? (await this.recipient(outcome.accountId, outcome.jobId));
      if (!recipient) return;
      const dashboard = `${this.config.publicUrl}/dashboard`;
      await this.mail.send(failed ? failureMail(recipient, outcome, dashboard) : recoveryMail(recipient, outcome, dashboard));
      // The same episode rule for the account's channels: one alert when it opens, one when it closes.
      // Not awaited: a channel's retries must not hold up the alerts of other jobs behind it.
      const cause = outcome.errorMessage ?? (outcome.responseCode ? `HTTP ${outcome.responseCode}` : 'unknown error');
      const last = `after ${outcome.attempt} attempt(s): ${cause}`;
      const failure = recipient.alertAfterFailures > 1 ? `${recipient.alertAfterFailures} runs failed in a row; the last failed ${last}` : `Failed ${last}`;
      this.toChannels(outcome.accountId, outcome.jobId, {
        event: failed ? 'failed' : 'recovered',
        jobName: recipient.jobName,
        jobUrl: recipient.jobUrl,
        detail: failed ? failure : `Succeeded again at ${outcome.executedAt.toISOString()} (HTTP ${outcome.responseCode}).`,
        at: outcome.executedAt,
        episodeId: episode.id,
        episodeStartedAt: episode.startedAt,
      });
    } catch (error) {
      this.logger.warn(`Failure alert for job ${outcome.jobId} not sent: ${(error as Error).message}`);
    }
  }

  private toChannels(accountId: string, jobId: string, alert: Parameters<AlertChannelsService['notify']>[2]): void {
    this.channels.notify(accountId, jobId, alert).catch((error: Error) => this.logger.warn(`Channel alerts for job ${jobId} not sent: ${error.message}`));
  }

  /** The job's owner and what the mail names; null when the job or its owner was deleted meanwhile. */
  private async recipient(accountId: string, jobId: string): Promise<(AlertRecipient & { tags: string[] }) | null> {
    const [job, user] = await Promise.all([this.jobs.get(accountId, jobId).catch(() => null), this.teams.ownerOf(accountId)]);
    return job && user ? { email: user.email, jobName: job.name, jobUrl: job.url, alertAfterFailures: job.alert_after_failures, tags: job.tags } : null;
  }
}
