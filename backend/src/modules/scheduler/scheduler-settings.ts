import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** Retries after the first attempt for a retryable failure (spec: "retried up to 3 times"). */
export const MAX_RETRIES = 3;

/** Missed due times recorded per job after an outage; older ones are counted in a log line, not stored. */
export const MAX_MISSED_RECORDED = 100;

/** Execution logs kept per job and their maximum age (housekeeping prunes the rest). */
export const RETENTION_RUNS_PER_JOB = 1_000;
export const RETENTION_DAYS = 90;

/**
 * The scheduler's timings in one place, read from the validated environment.
 * Every duration is configurable so tests can run with milliseconds instead of seconds.
 */
@Injectable()
export class SchedulerSettings {
  readonly enabled: boolean;
  readonly allowPrivateTargets: boolean;
  /** Host names the operator trusts even though they resolve to internal addresses. */
  readonly privateTargetAllowlist: ReadonlySet<string>;
  /** Per-request timeout of an execution. */
  readonly executionTimeoutMs: number;
  /** Safety poll: the longest the scheduler sleeps even when it knows of nothing due. */
  readonly pollIntervalMs: number;
  /** How far ahead due runs are claimed and prepared, so they can be released exactly on the instant. */
  readonly lookaheadMs: number;
  /** A claimed run's lease lasts until its due time + the execution timeout + this grace. */
  readonly leaseGraceMs: number;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly connectionsPerOrigin: number;
  /** Retry n waits base * 2^(n-1). */
  readonly retryBackoffBaseMs: number;
  readonly housekeepingIntervalMs: number;
  /** Whether full garbage collections are run between instants (see IdleCollector). */
  readonly idleCollection: boolean;
  /** How long shutdown waits for in-flight requests: half the process's shutdown budget, so results can still be stored. */
  readonly drainTimeoutMs: number;

  constructor(config: AppConfig) {
    const env = config.env;
    this.enabled = env.SCHEDULER_ENABLED;
    this.allowPrivateTargets = env.ALLOW_PRIVATE_TARGETS;
    this.privateTargetAllowlist = new Set(
      env.PRIVATE_TARGET_ALLOWLIST.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
    this.executionTimeoutMs = env.EXECUTION_TIMEOUT_MS;
    this.pollIntervalMs = env.SCHEDULER_POLL_INTERVAL_MS;
    this.lookaheadMs = env.SCHEDULER_LOOKAHEAD_MS;
    this.leaseGraceMs = env.SCHEDULER_LEASE_GRACE_MS;
    this.batchSize = env.SCHEDULER_BATCH_SIZE;
    this.concurrency = env.EXECUTOR_CONCURRENCY;
    this.connectionsPerOrigin = env.EXECUTOR_CONNECTIONS_PER_ORIGIN;
    this.retryBackoffBaseMs = env.RETRY_BACKOFF_BASE_MS;
    this.housekeepingIntervalMs = env.HOUSEKEEPING_INTERVAL_MS;
    this.idleCollection = env.SCHEDULER_IDLE_GC;
    this.drainTimeoutMs = Math.min(env.EXECUTION_TIMEOUT_MS, Math.floor(env.SHUTDOWN_TIMEOUT_MS / 2));
  }

  /** When a lease taken now on a run due at `dueAt` expires. */
  leaseExpiry(dueAt: Date, now: number): Date {
    return new Date(Math.max(dueAt.getTime(), now) + this.executionTimeoutMs + this.leaseGraceMs);
  }

  /** Delay before retry number `retry` (1-based). */
  backoffMs(retry: number): number {
    return this.retryBackoffBaseMs * 2 ** (retry - 1);
  }
}
