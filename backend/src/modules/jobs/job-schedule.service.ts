import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Queryable } from '../../common/database/transaction';
import type { JobRequest, StoredResult } from '../runs/runs.service';
import { RunsService } from '../runs/runs.service';
import { JobEvents } from './job-events';
import { JobsRepository, type DueJobRow, type HeldJobRow } from './jobs.repository';
import { toJobRequest } from './job-request';
import { nextDueOf, scheduleKey, scheduleSpecOf } from './job-schedule-spec';

export { toJobRequest } from './job-request';
export { scheduleKey, scheduleSpecOf };

export type { DueJobRow, HeldJobRow } from './jobs.repository';

/**
 * The scheduler's access to `jobs`: claiming due jobs, moving them to their
 * next due time, the requests runs execute, and the status that stored
 * results and the quota give them. Methods taking `tx` run inside the
 * caller's transaction.
 */
@Injectable()
export class JobScheduleService implements OnModuleInit {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly runs: RunsService,
    private readonly events: JobEvents,
  ) {}

  /** Stored execution results set their job's status and last_run_at in the same transaction. */
  onModuleInit(): void {
    this.runs.setStoredResultsHook((tx, results) => this.applyResults(tx, results));
  }

  /** Locks up to `limit` jobs due by `horizon`, skipping jobs another instance is claiming. */
  lockDue(tx: Queryable, horizon: Date, limit: number): Promise<DueJobRow[]> {
    return this.jobs.lockDue(tx, horizon, limit);
  }

  /** Moves claimed jobs to their next due time; jobs over their quota go to quota_reached. */
  advance(tx: Queryable, moves: Array<{ jobId: string; next: Date | null; overQuota: boolean }>): Promise<void> {
    return this.jobs.advance(tx, moves.map((m) => m.jobId), moves.map((m) => m.next), moves.map((m) => m.overQuota));
  }

  /** The requests of the given jobs, by job id (deleted jobs are absent). */
  async requests(tx: Queryable, jobIds: string[]): Promise<Map<string, JobRequest>> {
    if (jobIds.length === 0) return new Map();
    const rows = await this.jobs.requests(tx, [...new Set(jobIds)]);
    return new Map(rows.map((r) => [r.id, toJobRequest(r)]));
  }

  earliestNextRun(): Promise<Date | null> {
    return this.jobs.earliestNextRun();
  }

  /** Every job the quota stopped. */
  quotaHeld(): Promise<HeldJobRow[]> {
    return this.jobs.quotaHeld(null);
  }

  /**
   * Puts the given quota-stopped jobs back on their schedule as a new month
   * begins, due at their next instant after `now` (the caller wakes the
   * schedulers); each account's audit log names the jobs resumed.
   */
  async restoreQuotaHeld(jobs: HeldJobRow[], now: Date): Promise<number> {
    if (jobs.length === 0) return 0;
    const next = jobs.map((j) => nextDueOf(j, now));
    return (await this.jobs.restoreHeldForNewPeriod(jobs.map((j) => j.id), next)).length;
  }

  /**
   * A job that reaches its auto_pause_after is paused in the same statement;
   * the change is announced at once (the scheduler drops its claims, the
   * owner is alerted), while the results' transaction finishes.
   */
  private async applyResults(tx: Queryable, results: StoredResult[]): Promise<void> {
    const paused = await this.jobs.applyResults(tx, results.map((r) => r.jobId), results.map((r) => r.status), results.map((r) => r.executedAt));
    for (const job of paused) this.events.emit({ jobId: job.id, accountId: job.account_id, kind: 'paused', nextRunAt: null, autoPausedAfter: job.auto_pause_after });
  }
}
