import type { MailMessage } from '../mail/mail.service';

/** Mail to a customer whose jobs were paused because their new plan allows fewer. */
export function jobsPausedMail(to: string, plan: string, maxJobs: number, jobNames: string[], publicUrl: string): MailMessage {
  const list = jobNames.map((name) => `  - ${name}`).join('\n');
  return {
    to,
    subject: `${jobNames.length} job${jobNames.length === 1 ? '' : 's'} paused: your plan is now ${plan}`,
    text:
      `Your Cronbeam plan is now ${plan}, which runs up to ${maxJobs} jobs. ` +
      `We paused the newest jobs above that limit; none were deleted:\n\n${list}\n\n` +
      `Resume them after upgrading or after removing other jobs: ${publicUrl}/dashboard/jobs\n` +
      `Plans: ${publicUrl}/pricing\n`,
  };
}

/** Mail to a customer whose renewal payment failed; the plan stays until the provider stops retrying. */
export function paymentFailedMail(to: string, plan: string, publicUrl: string): MailMessage {
  return {
    to,
    subject: 'Your Cronbeam payment failed',
    text:
      `We could not charge your card for your ${plan} plan. Your plan stays active while the payment is retried; ` +
      `if every retry fails, the subscription ends and your account returns to the free plan.\n\n` +
      `Update your card or change plans: ${publicUrl}/profile\n`,
  };
}
