import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ClaimedRun } from './claimed-run';
import { ExecutionEvents, type ExecutionOutcome } from './execution-events';
import type { ExecutionResult } from './executor/http-executor';
import { DispatchPressure } from './dispatch-pressure';
import { returnedRows } from './query-rows';
import { SchedulerInstance } from './scheduler-instance';
import { SchedulerMetrics } from './scheduler-metrics';
import { MAX_RETRIES, SchedulerSettings } from './scheduler-settings';

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

interface Finished {
  run: ClaimedRun;
  result: ExecutionResult;
  /** Due time of the retry this failure schedules, if any. */
  retryAt: Date | null;
}

/** Results are written in batches: one transaction per ~20 ms instead of one per execution. */
const FLUSH_DELAY_MS = 20;
const FLUSH_MAX = 500;
/** Rows per transaction when a large backlog is written. */
const WRITE_CHUNK = 2_000;
/**
 * During a burst, writes wait until the dispatcher's queue is empty, but never
 * longer than this or past this many results: a crash loses at most these
 * results, whose leases then expire and whose runs fire again (at least once).
 */
const DEFER_MAX_MS = 3_000;
const DEFER_MAX_RESULTS = 20_000;

/**
 * Writes execution results: the run's log fields, the retry it schedules
 * (a durable queued run, so a restart loses none), the job's status and
 * last_run_at, all in one transaction per batch; then publishes the outcomes.
 */
@Injectable()
export class RunRecorder {
  private readonly logger = new Logger(RunRecorder.name);
  private pending: Finished[] = [];
  private pendingSince = 0;
  private urgent = false;
  private pendingStored: Deferred | null = null;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly settings: SchedulerSettings,
    private readonly instance: SchedulerInstance,
    private readonly events: ExecutionEvents,
    private readonly metrics: SchedulerMetrics,
    private readonly pressure: DispatchPressure,
  ) {}

  /**
   * Queues a result for the next batch; resolves once it is stored. An urgent
   * result (a manual run whose caller waits for it) is not held back by a burst.
   */
  record(run: ClaimedRun, result: ExecutionResult, urgent = false): Promise<void> {
    const retryable = !result.success && result.retryable && run.trigger !== 'manual' && run.attempt <= MAX_RETRIES;
    const retryAt = retryable ? new Date(Date.now() + this.settings.backoffMs(run.attempt)) : null;
    this.metrics.countExecution(result.success ? 'success' : 'failed', run.trigger);
    if (this.pending.length === 0) this.pendingSince = performance.now();
    this.pending.push({ run, result, retryAt });
    this.urgent ||= urgent;
    this.pendingStored ??= deferred();
    const stored = this.pendingStored.promise;
    if (this.pending.length >= FLUSH_MAX && !this.holdBack()) this.flush();
    else this.timer ??= setTimeout(() => this.onTimer(), FLUSH_DELAY_MS);
    return stored;
  }

  /** Whether to keep results in memory a little longer because a burst is being sent. */
  private holdBack(): boolean {
    return (
      this.pressure.busy && !this.urgent && this.pending.length < DEFER_MAX_RESULTS && performance.now() - this.pendingSince < DEFER_MAX_MS
    );
  }

  private onTimer(): void {
    this.timer = null;
    if (this.holdBack()) this.timer = setTimeout(() => this.onTimer(), FLUSH_DELAY_MS);
    else this.flush();
  }

  /** Stores everything queued so far (shutdown). */
  async drain(): Promise<void> {
    this.flush();
    await this.writing;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    const stored = this.pendingStored;
    this.pending = [];
    this.urgent = false;
    this.pendingStored = null;
    this.writing = this.writing
      .then(async () => {
        for (let i = 0; i < batch.length; i += WRITE_CHUNK) await this.write(batch.slice(i, i + WRITE_CHUNK));
      })
      .finally(() => stored?.resolve());
  }

  private async write(batch: Finished[]): Promise<void> {
    if (batch.length === 0) return;
    let kept: Finished[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        kept = await this.store(batch);
        break;
      } catch (error) {
        // A deadlock with another instance's batch or a dropped connection: try again; past that the
        // runs stay leased and another instance re-executes them when the lease expires (at least once).
        if (attempt === 3) {
          this.logger.error(`Storing ${batch.length} execution result(s) failed: ${(error as Error).message}`);
          return;
        }
      }
    }
    for (const f of kept) this.events.publish(toOutcome(f));
  }

  private async store(batch: Finished[]): Promise<Finished[]> {
    const byJob = [...batch].sort((a, b) => a.run.jobId.localeCompare(b.run.jobId));
    return this.db.transaction(async (em) => {
      const stored = returnedRows<{ id: string }>(await em.query(
        `UPDATE job_runs r SET state = 'done', status = v.status, executed_at = v.executed_at, finished_at = now(),
           response_code = v.response_code, duration_ms = v.duration_ms, error_message = v.error_message,
           response_body = v.response_body, lease_owner = NULL, lease_expires_at = NULL
         FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[])
           AS v(id, status, executed_at, response_code, duration_ms, error_message, response_body)
         WHERE r.id = v.id AND r.state = 'running' AND r.lease_owner = $8
         RETURNING r.id`,
        [
          byJob.map((f) => f.run.runId),
          byJob.map((f) => (f.result.success ? 'success' : 'failed')),
          byJob.map((f) => f.result.startedAt),
          byJob.map((f) => f.result.responseCode),
          byJob.map((f) => f.result.durationMs),
          byJob.map((f) => f.result.errorMessage),
          byJob.map((f) => f.result.responseBody),
          this.instance.id,
        ],
      ));
      // A result whose lease another instance took over is dropped: that instance records its own.
      const ours = new Set(stored.map((r) => r.id));
      const kept = byJob.filter((f) => ours.has(f.run.runId));
      const lost = byJob.length - kept.length;
      if (lost > 0) this.logger.warn(`${lost} result(s) dropped: their lease had passed to another instance`);

      const retries = kept.filter((f) => f.retryAt);
      if (retries.length > 0) {
        await em.query(
          `INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, attempt, due_at, state)
           SELECT v.job_id, v.user_id, 'retry', v.scheduled_for, v.attempt, v.due_at, 'queued'
           FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::int[], $5::timestamptz[])
             AS v(job_id, user_id, scheduled_for, attempt, due_at)
           WHERE EXISTS (SELECT 1 FROM jobs j WHERE j.id = v.job_id)
           ON CONFLICT (job_id, scheduled_for, attempt) WHERE trigger <> 'manual' DO NOTHING`,
          [
            retries.map((f) => f.run.jobId),
            retries.map((f) => f.run.userId),
            retries.map((f) => f.run.scheduledFor),
            retries.map((f) => f.run.attempt + 1),
            retries.map((f) => f.retryAt),
          ],
        );
      }
      // The job's status reflects the latest final outcome; a failure that will be retried leaves it as it was.
      // Paused and quota_reached are the user's or the quota's decision, never overwritten by a result.
      await em.query(
        `UPDATE jobs j SET
           status = CASE WHEN j.status IN ('paused', 'quota_reached') OR v.status IS NULL THEN j.status ELSE v.status END,
           last_run_at = greatest(j.last_run_at, v.executed_at)
         FROM (SELECT DISTINCT ON (id) * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS u(id, status, executed_at)
               ORDER BY id, executed_at DESC) v
         WHERE j.id = v.id`,
        [kept.map((f) => f.run.jobId), kept.map((f) => (f.retryAt ? null : f.result.success ? 'success' : 'failed')), kept.map((f) => f.result.startedAt)],
      );
      return kept;
    });
  }
}

function toOutcome(f: Finished): ExecutionOutcome {
  return {
    runId: f.run.runId,
    jobId: f.run.jobId,
    userId: f.run.userId,
    trigger: f.run.trigger,
    attempt: f.run.attempt,
    scheduledFor: f.run.scheduledFor,
    dueAt: f.run.dueAt,
    executedAt: f.result.startedAt,
    status: f.result.success ? 'success' : 'failed',
    responseCode: f.result.responseCode,
    durationMs: f.result.durationMs,
    errorMessage: f.result.errorMessage,
    responseBody: f.result.responseBody,
    willRetry: f.retryAt !== null,
    notifyOnFailure: f.run.notifyOnFailure,
  };
}
