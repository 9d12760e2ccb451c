/**
 * The job form's checkbox that turns a job's failure alerts on: one name on
 * both screens it matters to, because it sends the mail to the account and
 * the alerts to the alert channels alike.
 */
export const ALERT_OPTION = 'Alert me when a run fails';

/** What the checkbox does, under it in the job form. */
export const ALERT_OPTION_HINT = 'Mails you, and alerts your alert channels, when failures start, on recovery and when the job pauses itself.';
