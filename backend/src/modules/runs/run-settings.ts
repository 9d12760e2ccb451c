import { Injectable } from '@nestjs/common';
import { effectiveTimeoutMs } from '@cronbeam/shared/jobs/plan-timeout';
import { AppConfig } from '../../config/app-config';

/**
 * Execution logs kept per job and their age: surplus finished runs are
 * pruned, and a week of runs goes (its partition dropped) once the whole week
 * is older than RETENTION_DAYS, so a run is kept 90 to 97 days.
 */
export const RETENTION_RUNS_PER_JOB = 1_000;
export const RETENTION_DAYS = 90;

/** The run history's weekly partitions exist this far ahead, so a run is never inserted where none is ready. */
export const PARTITION_DAYS_AHEAD = 28;

/** Leases and retries, read from the validated environment. */
@Injectable()
export class RunSettings {
  /**
   * A lease lasts until the run's due time + its request's time limit + this
   * grace: a job with the default limit holds its run no longer than before
   * per-job limits, however high the server's ceiling.
   */
  readonly leaseMs: number;
  /** The longest lease: a request of the server's ceiling (EXECUTION_TIMEOUT_MS) + grace. */
  readonly maxLeaseMs: number;
  /** What a lease adds to the request's time limit (SCHEDULER_LEASE_GRACE_MS). */
  readonly graceMs: number;
  private readonly ceilingMs: number;
  /** A retry policy without its own initial wait starts from this; each retry doubles it. */
  readonly retryBackoffBaseMs: number;

  constructor(config: AppConfig) {
    this.graceMs = config.env.SCHEDULER_LEASE_GRACE_MS;
    this.ceilingMs = config.env.EXECUTION_TIMEOUT_MS;
    this.leaseMs = this.leaseMsFor(null);
    this.maxLeaseMs = this.ceilingMs + this.graceMs;
    this.retryBackoffBaseMs = config.env.RETRY_BACKOFF_BASE_MS;
  }

  /** The lease of a run whose job asks for `timeoutMs` (null: the default limit). */
  leaseMsFor(timeoutMs: number | null): number {
    return effectiveTimeoutMs(timeoutMs, this.ceilingMs) + this.graceMs;
  }

  /** When a lease taken now on a run due at `dueAt` expires, for a job asking `timeoutMs`. */
  leaseExpiry(dueAt: Date, now: number, timeoutMs: number | null = null): Date {
    return new Date(Math.max(dueAt.getTime(), now) + this.leaseMsFor(timeoutMs));
  }
}
