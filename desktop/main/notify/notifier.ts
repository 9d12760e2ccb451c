import type { ExecutionEvent } from '@cronbeam/shared/notifications/execution-event';
import type { MonitorChange } from '../monitors/monitor-watch';

/** The native notification API, narrowed to what the notifier uses. */
export interface NotificationPort {
  show(notification: { title: string; body: string; onClick: () => void }): void;
}

export interface NotifierOptions {
  notifications: NotificationPort;
  /** The job's name for the text (its id when not known yet). */
  jobName: (jobId: string) => string;
  /** Jobs the user muted in the desktop app. */
  isMuted: (jobId: string) => boolean;
  /** True while the OS's do-not-disturb / focus mode is on, where the OS tells. */
  isDoNotDisturb: () => boolean;
  /** Opens the dashboard window on the job's logs. */
  openJobLogs: (jobId: string) => void;
  /** Opens the dashboard window on the heartbeat monitors. */
  openMonitors: () => void;
}

function cause(event: ExecutionEvent): string {
  return event.error_message ?? (event.response_code ? `HTTP ${event.response_code}` : 'unknown error');
}

/**
 * Native notifications with the rule of the failure emails: one when a
 * failure episode starts (a run failed with no retry left), none for its
 * retries or further failures, one when the job succeeds again. Episodes are
 * tracked for muted jobs and during do-not-disturb too, so unmuting later
 * does not replay an old failure.
 */
export class Notifier {
  private readonly failing = new Set<string>();

  constructor(private readonly options: NotifierOptions) {}

  /** Jobs known to be failing when the app starts (their episode began before): no new notification for them. */
  seedFailing(jobIds: Iterable<string>): void {
    for (const id of jobIds) this.failing.add(id);
  }

  /** Another account signs in next: no episode carries over. */
  forgetAll(): void {
    this.failing.clear();
  }

  isFailing(jobId: string): boolean {
    return this.failing.has(jobId);
  }

  handle(event: ExecutionEvent): void {
    if (event.status === 'failed') {
      // A retry is queued: the episode is not decided yet.
      if (event.will_retry || this.failing.has(event.job_id)) return;
      this.failing.add(event.job_id);
      const attempts = event.attempt > 1 ? ` after ${event.attempt} attempts` : '';
      this.show(event.job_id, `Job failed: ${this.options.jobName(event.job_id)}`, `Failed${attempts}: ${cause(event)}`);
      return;
    }
    if (!this.failing.delete(event.job_id)) return;
    const code = event.response_code === null ? '' : ` (HTTP ${event.response_code})`;
    this.show(event.job_id, `Job recovered: ${this.options.jobName(event.job_id)}`, `Succeeded again${code}`);
  }

  /** A heartbeat monitor went down or came back (the watch reports each change once). */
  handleMonitor(change: MonitorChange): void {
    if (this.options.isDoNotDisturb()) return;
    const { monitor } = change;
    const lastPing = monitor.lastPingAt ? `Last ping at ${monitor.lastPingAt.slice(11, 16)} UTC` : 'No ping received yet';
    const [title, body] =
      change.kind === 'down'
        ? [`Monitor down: ${monitor.name}`, `A ping is overdue or a failure was reported. ${lastPing}.`]
        : [`Monitor recovered: ${monitor.name}`, `${lastPing}.`];
    this.options.notifications.show({ title, body, onClick: () => this.options.openMonitors() });
  }

  private show(jobId: string, title: string, body: string): void {
    if (this.options.isMuted(jobId) || this.options.isDoNotDisturb()) return;
    this.options.notifications.show({ title, body, onClick: () => this.options.openJobLogs(jobId) });
  }
}
