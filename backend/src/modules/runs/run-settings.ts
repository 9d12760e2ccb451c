import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** A failed scheduled run is retried up to this many times after its first attempt (retryable failures only). */
export const MAX_RETRIES = 3;

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
  /** A lease lasts until the run's due time + the execution timeout + this grace. */
  readonly leaseMs: number;
  /** Retry n waits base * 2^(n-1). */
  readonly retryBackoffBaseMs: number;

  constructor(config: AppConfig) {
    this.leaseMs = config.env.EXECUTION_TIMEOUT_MS + config.env.SCHEDULER_LEASE_GRACE_MS;
    this.retryBackoffBaseMs = config.env.RETRY_BACKOFF_BASE_MS;
  }

  /** When a lease taken now on a run due at `dueAt` expires. */
  leaseExpiry(dueAt: Date, now: number): Date {
    return new Date(Math.max(dueAt.getTime(), now) + this.leaseMs);
  }

  /** Delay before retry number `retry` (1-based). */
  backoffMs(retry: number): number {
    return this.retryBackoffBaseMs * 2 ** (retry - 1);
  }
}
