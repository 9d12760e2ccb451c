import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RUN_OUTCOME, RUN_TRIGGER } from '@cronbeam/shared/jobs/job-types';
import { policyRetries, retryDelayMs } from '@cronbeam/shared/jobs/retry-policy';
import type { Queryable } from '../../common/database/transaction';
import type { ExecutionResult } from '../executor/http-executor.service';
import type { ClaimedRun } from './claimed-run';
import { DispatchPressure } from './dispatch-pressure.service';
import { ExecutionEvents, type ExecutionOutcome } from './execution-events';
import { ExecutionMetrics } from './execution-metrics';
import { JobRunsRepository } from './job-runs.repository';
import { LeaseOwner } from './lease-owner';
import { RunSettings } from './run-settings';

/** One stored result as the job's owner (the jobs module) applies it to the job: its final status, if any, and when it ran. */
export interface StoredResult {
  jobId: string;
  /** Null while a retry is queued: the failure episode is not decided yet. */
  status: 'success' | 'failed' | null;
  executedAt: Date;
}

/** Called inside the transaction that stored a batch, so the job's status commits with its runs. */
export type StoredResultsHook = (tx: Queryable, results: StoredResult[]) => Promise<void>;

/**
 * Called inside the transaction that stored a batch, after the jobs' own hook,
 * with the batch's decided runs (succeeded, or failed with no retry left) whose
 * job has a callback URL; never called with none.
 */
export type DecidedRunsHook = (tx: Queryable, outcomes: ExecutionOutcome[]) => Promise<void>;

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
  /** The batch being written, if any: one at a time, and what arrives meanwhile joins the next. */
  private writing: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly runs: JobRunsRepository,
    private readonly settings: RunSettings,
    private readonly owner: LeaseOwner,
    private readonly events: ExecutionEvents,
    private readonly metrics: ExecutionMetrics,
    private readonly pressure: DispatchPressure,
  ) {}

  private onStored: StoredResultsHook = async () => undefined;
  private onDecided: DecidedRunsHook | null = null;

  /** The jobs module applies each stored batch to its jobs' status and last_run_at (one hook). */
  setStoredResultsHook(hook: StoredResultsHook): void {
    this.onStored = hook;
  }

  /** The run callbacks queue their deliveries with the results that call for them (one hook). */
  setDecidedRunsHook(hook: DecidedRunsHook): void {
    this.onDecided = hook;
  }

  /**
   * Queues a result for the next batch; resolves once it is stored. An urgent
   * result (a manual run whose caller waits for it) is not held back by a burst.
   */
  record(run: ClaimedRun, result: ExecutionResult, urgent = false): Promise<void> {
    const retryAt = this.retryAt(run, result);
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

  /**
   * When the job's retry policy tries this failure again (attempt n is retry
   * n-1, so the policy's `attempts` retries follow the first), or null.
   * Manual runs are never retried: the user sees the outcome.
   */
  private retryAt(run: ClaimedRun, result: ExecutionResult): Date | null {
    if (result.success || run.trigger === RUN_TRIGGER.manual || run.attempt > run.retry.attempts) return null;
    const kind = result.failureKind;
    // An interrupted execution (the server stopped mid-request) carries no kind: it is retried as it always was.
    const retries = kind === undefined ? result.retryable : kind !== null && policyRetries(run.retry, kind, result.responseCode);
    if (!retries) return null;
    return new Date(Date.now() + retryDelayMs(run.retry, run.attempt, this.settings.retryBackoffBaseMs, result.retryAfterMs ?? null));
  }

  /**
   * Whether to keep results in memory a little longer because a burst is
   * being sent. Never for half the lease's grace or more: a run's lease ends
   * its time limit plus the grace after its due time, and a result still
   * unwritten then would let another instance send the run again.
   */
  private holdBack(): boolean {
    const maxWaitMs = Math.min(DEFER_MAX_MS, this.settings.graceMs / 2);
    return this.pressure.busy && !this.urgent && this.pending.length < DEFER_MAX_RESULTS && performance.now() - this.pendingSince < maxWaitMs;
  }

  private onTimer(): void {
    this.timer = null;
    if (this.holdBack()) this.timer = setTimeout(() => this.onTimer(), FLUSH_DELAY_MS);
    else this.flush();
  }

  /** Stores everything queued so far (shutdown). */
  async drain(): Promise<void> {
    while (this.writing || this.pending.length > 0) {
      this.flush();
      await this.writing;
    }
  }

  /**
   * Writes what is queued, unless a batch is being written: then it waits and
   * goes as one batch once that one is stored. When writes are slower than
   * results arrive (a loaded database), batches grow instead of queueing up
   * behind each other as a chain of small transactions, each result waiting
   * for every one before it.
   */
  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.writing || this.pending.length === 0) return;
    const batch = this.pending;
    const stored = this.pendingStored;
    this.pending = [];
    this.urgent = false;
    this.pendingStored = null;
    this.writing = (async () => {
      try {
        for (let i = 0; i < batch.length; i += WRITE_CHUNK) await this.write(batch.slice(i, i + WRITE_CHUNK));
      } finally {
        stored?.resolve();
        this.writing = null;
        if (this.pending.length > 0 && !this.timer) this.onTimer();
      }
    })();
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
    return this.db.transaction(async (tx) => {
      const stored = await this.runs.finish(
        tx,
        {
          runIds: byJob.map((f) => f.run.runId),
          statuses: byJob.map((f) => (f.result.success ? RUN_OUTCOME.success : RUN_OUTCOME.failed)),
          executedAt: byJob.map((f) => f.result.startedAt),
          responseCodes: byJob.map((f) => f.result.responseCode),
          durationsMs: byJob.map((f) => f.result.durationMs),
          errors: byJob.map((f) => f.result.errorMessage),
          responseBodies: byJob.map((f) => f.result.responseBody),
          possibleDuplicates: byJob.map((f) => f.run.possibleDuplicate),
        },
        this.owner.id,
      );
      // A result whose lease another instance took over is dropped: that instance records its own.
      const ours = new Set(stored);
      const kept = byJob.filter((f) => ours.has(f.run.runId));
      const lost = byJob.length - kept.length;
      if (lost > 0) this.logger.warn(`${lost} result(s) dropped: their lease had passed to another instance`);

      const retries = kept.filter((f) => f.retryAt);
      if (retries.length > 0) {
        await this.runs.queueRetries(tx, {
          afterRunIds: retries.map((f) => f.run.runId),
          jobIds: retries.map((f) => f.run.jobId),
          accountIds: retries.map((f) => f.run.accountId),
          scheduledFor: retries.map((f) => f.run.scheduledFor),
          attempts: retries.map((f) => f.run.attempt + 1),
          dueAt: retries.map((f) => f.retryAt!),
        });
      }
      await this.onStored(
        tx,
        kept.map((f) => ({ jobId: f.run.jobId, status: f.retryAt ? null : f.result.success ? 'success' : 'failed', executedAt: f.result.startedAt })),
      );
      // Callbacks commit with their runs: a crash after this cannot lose one, and a run's callback is queued once.
      const decided = this.onDecided ? kept.filter((f) => f.run.callbackUrl !== null && f.retryAt === null) : [];
      if (decided.length > 0) await this.onDecided!(tx, decided.map(toOutcome));
      return kept;
    });
  }
}

function toOutcome(f: Finished): ExecutionOutcome {
  return {
    runId: f.run.runId,
    jobId: f.run.jobId,
    accountId: f.run.accountId,
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
    callbackUrl: f.run.callbackUrl,
    certificateExpiresAt: f.result.certificateExpiresAt ?? null,
  };
}
