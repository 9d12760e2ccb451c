import type { Job } from '@cronbeam/shared/jobs/job-types';
import type { ExecutionEvent } from '@cronbeam/shared/notifications/execution-event';

/** The five latest outcomes are listed in the tray menu. */
export const LATEST_OUTCOMES_SHOWN = 5;

export interface BoardJob {
  id: string;
  name: string;
  status: Job['status'];
}

export interface BoardOutcome {
  runId: string;
  jobId: string;
  jobName: string;
  status: ExecutionEvent['status'];
  executedAt: string;
}

/**
 * What the tray shows of the user's jobs: each job's last final status (the
 * job list at start, then every outcome the feed brings) and the latest outcomes.
 */
export class JobBoard {
  private readonly jobs = new Map<string, BoardJob>();
  private latest: BoardOutcome[] = [];
  private readonly listeners = new Set<() => void>();

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Replaces the job list (sign-in, reconnect). */
  load(jobs: Job[]): void {
    this.jobs.clear();
    for (const job of jobs) this.jobs.set(job.job_id, { id: job.job_id, name: job.name, status: job.status });
    this.emit();
  }

  clear(): void {
    this.jobs.clear();
    this.latest = [];
    this.emit();
  }

  apply(event: ExecutionEvent): void {
    const job = this.jobs.get(event.job_id);
    // A failure with a retry queued leaves the job's status as it was, as the server does.
    if (job && !(event.status === 'failed' && event.will_retry) && job.status !== 'paused' && job.status !== 'quota_reached') {
      job.status = event.status;
    }
    this.latest = [
      { runId: event.run_id, jobId: event.job_id, jobName: this.nameOf(event.job_id), status: event.status, executedAt: event.executed_at },
      ...this.latest.filter((o) => o.runId !== event.run_id),
    ].slice(0, LATEST_OUTCOMES_SHOWN);
    this.emit();
  }

  setStatus(jobId: string, status: Job['status']): void {
    const job = this.jobs.get(jobId);
    if (!job) return;
    job.status = status;
    this.emit();
  }

  nameOf(jobId: string): string {
    return this.jobs.get(jobId)?.name ?? jobId;
  }

  failingJobs(): BoardJob[] {
    return [...this.jobs.values()].filter((j) => j.status === 'failed').sort((a, b) => a.name.localeCompare(b.name));
  }

  latestOutcomes(): BoardOutcome[] {
    return this.latest;
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
