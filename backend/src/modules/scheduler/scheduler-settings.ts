import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { shutdownBudget } from '../../config/shutdown-budget';

/** Missed due times recorded per job after an outage; older ones are counted in a log line, not stored. */
export const MAX_MISSED_RECORDED = 100;

/**
 * The scheduler's timings in one place, read from the validated environment.
 * Every duration is configurable so tests can run with milliseconds instead of seconds.
 */
@Injectable()
export class SchedulerSettings {
  readonly enabled: boolean;
  /** Safety poll: the longest the scheduler sleeps even when it knows of nothing due. */
  readonly pollIntervalMs: number;
  /** How far ahead due runs are claimed and prepared, so they can be released exactly on the instant. */
  readonly lookaheadMs: number;
  readonly batchSize: number;
  /** HTTP requests in flight per instance. */
  readonly concurrency: number;
  readonly housekeepingIntervalMs: number;
  /** Whether full garbage collections are scheduled between instants (see IdleCollector; needs node --expose-gc). */
  readonly idleCollection: boolean;
  /**
   * How long a bare close of the application (tests; the process stops through
   * stopGracefully first) waits for requests in flight before leaving them
   * their lease: the stop budget's share for requests, at most 5 s.
   */
  readonly drainTimeoutMs: number;
  /** How often this instance refreshes its liveness row. */
  readonly heartbeatIntervalMs: number;
  /** A heartbeat older than this marks its instance dead: its never-sent runs are taken over. */
  readonly instanceStaleMs: number;

  constructor(config: AppConfig) {
    const env = config.env;
    this.enabled = env.SCHEDULER_ENABLED;
    this.pollIntervalMs = env.SCHEDULER_POLL_INTERVAL_MS;
    this.lookaheadMs = env.SCHEDULER_LOOKAHEAD_MS;
    this.batchSize = env.SCHEDULER_BATCH_SIZE;
    this.concurrency = env.EXECUTOR_CONCURRENCY;
    this.housekeepingIntervalMs = env.HOUSEKEEPING_INTERVAL_MS;
    this.idleCollection = env.SCHEDULER_IDLE_GC;
    this.drainTimeoutMs = Math.min(shutdownBudget(env).executionsMs, 5_000);
    this.heartbeatIntervalMs = env.SCHEDULER_HEARTBEAT_INTERVAL_MS;
    // A live instance must get at least two beats in before it could be thought dead.
    this.instanceStaleMs = Math.max(env.SCHEDULER_INSTANCE_STALE_MS, 2 * env.SCHEDULER_HEARTBEAT_INTERVAL_MS + 100);
  }
}
