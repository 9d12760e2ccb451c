import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { RUN_OUTCOME, RUN_STATE, type JobLogEntry, type RunOutcome, type RunTrigger } from '@cronbeam/shared/jobs/job-types';
import { isForeignKeyViolation } from '../../common/database/constraint-violation';
import type { Queryable } from '../../common/database/transaction';
import type { FailureEpisode, OutcomeDay } from '../../common/history/outcome-history';
import { ApiError } from '../../common/http/api-error';
import { HttpExecutor, type ExecutionResult, type PreparedRequest } from '../executor/http-executor.service';
import { QuotaService, usagePeriodOf } from '../quota/quota.service';
import { toClaimedRun, type ClaimedRun, type JobRequest, type LeasedRunRow } from './claimed-run';
import { DispatchPressure } from './dispatch-pressure.service';
import { ExecutionEvents, type ExecutionOutcome } from './execution-events';
import { ExecutionMetrics } from './execution-metrics';
import { InFlightExecutions } from './in-flight-executions';
import type { JobRunEntity } from './job-run.entity';
import { JobRunsRepository, type NewRunRows } from './job-runs.repository';
import { LeaseOwner } from './lease-owner';
import { PARTITION_DAYS_AHEAD, RETENTION_DAYS, RETENTION_RUNS_PER_JOB, RunSettings } from './run-settings';
import { RunRecorder, type DecidedRunsHook, type StoredResultsHook } from './run-recorder';
import type { ReadFrom } from '../../database/read-database';

export { toClaimedRun, type ClaimedRun, type JobRequest, type LeasedRunRow } from './claimed-run';
export type { ExecutionOutcome } from './execution-events';
export type { DecidedRunsHook, StoredResult, StoredResultsHook } from './run-recorder';

/** The log line of a run that may have been sent when its instance died, for a job that is never sent twice. */
export const OUTCOME_UNKNOWN =
  'Outcome unknown: the server sending this request stopped before its answer was recorded; it is not sent again (delivery: at most once)';

/** A run a claim creates: leased to this instance, or already finished as skipped (quota) or missed (outage). */
export type NewRun =
  | { jobId: string; accountId: string; trigger: RunTrigger; scheduledFor: Date; outcome: 'leased'; timeoutMs: number | null }
  | { jobId: string; accountId: string; trigger: RunTrigger; scheduledFor: Date; outcome: Extract<RunOutcome, 'skipped' | 'missed'>; error: string; skipReason?: string };

/** A stored execution as the event stream replays it (no response body or alert flag: the stream sends neither). */
export type StoredOutcome = Omit<ExecutionOutcome, 'responseBody' | 'notifyOnFailure' | 'callbackUrl'>;

/** A saved job as "run now" needs it. */
export interface RunnableJob extends JobRequest {
  id: string;
  accountId: string;
  plan: string;
}

/** A finished run as one line of a job's log. */
export function toLogEntry(run: JobRunEntity): JobLogEntry {
  return {
    run_id: run.id,
    executed_at: run.executedAt ? run.executedAt.toISOString() : null,
    scheduled_for: run.scheduledFor.toISOString(),
    attempt: run.attempt,
    trigger: run.trigger,
    // A finished run always has an outcome; an unexpected null is shown as a failure, never as success.
    status: run.status ?? RUN_OUTCOME.failed,
    response_code: run.responseCode,
    duration_ms: run.durationMs,
    error_message: run.errorMessage,
    response_body: run.responseBody,
    possible_duplicate: run.possibleDuplicate,
    alert_note: run.alertNote ?? null,
  };
}

/**
 * Run records (`job_runs`): the scheduler's queue and every job's execution
 * log. Leases belong to this instance (LeaseOwner); results are stored in
 * batches by the RunRecorder and published as ExecutionOutcomes.
 */
@Injectable()
export class RunsService {
  private readonly inFlight = new InFlightExecutions();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly runs: JobRunsRepository,
    private readonly recorder: RunRecorder,
    private readonly events: ExecutionEvents,
    private readonly owner: LeaseOwner,
    private readonly settings: RunSettings,
    private readonly quota: QuotaService,
    private readonly executor: HttpExecutor,
    /** Dispatch reports bursts here; the recorder holds writes back while one is sent. */
    readonly pressure: DispatchPressure,
    readonly metrics: ExecutionMetrics,
  ) {}

  /** What every lease owner of this process starts with. */
  get processPrefix(): string {
    return LeaseOwner.processPrefix;
  }

  /** The longest a lease lasts past its run's due time (the server's ceiling on time limits + grace). */
  get maxLeaseMs(): number {
    return this.settings.maxLeaseMs;
  }

  /** This process's identity as the owner of run leases (and of its scheduler liveness row). */
  get leaseOwner(): string {
    return this.owner.id;
  }

  /** Every stored execution result, as it is stored. */
  get outcomes$(): Observable<ExecutionOutcome> {
    return this.events.outcomes$;
  }

  /**
   * The user's executions stored since the run `afterRunId`, oldest first,
   * for a client that reconnects to the event stream; null when that run is
   * unknown to this user (pruned, or never theirs). Runs of one write batch
   * share a `finished_at` and were published in an order that is not stored,
   * so the anchor's whole batch is replayed (less the anchor): a client may
   * see an outcome twice, never miss one.
   */
  async outcomesAfter(accountId: string, afterRunId: string, limit: number): Promise<StoredOutcome[] | null> {
    if (!(await this.runs.isStoredRunOf(accountId, afterRunId))) return null;
    const rows = await this.runs.storedSince(accountId, afterRunId, limit);
    return rows.map((r) => ({
      runId: r.id,
      jobId: r.job_id,
      accountId: r.account_id,
      trigger: r.trigger,
      attempt: r.attempt,
      scheduledFor: r.scheduled_for,
      dueAt: r.due_at,
      executedAt: r.executed_at,
      status: r.status,
      responseCode: r.response_code,
      durationMs: r.duration_ms ?? 0,
      errorMessage: r.error_message,
      willRetry: r.will_retry,
    }));
  }

  /** Lets the jobs module apply stored results to its jobs in the same transaction. */
  setStoredResultsHook(hook: StoredResultsHook): void {
    this.recorder.setStoredResultsHook(hook);
  }

  /** Lets the run callbacks queue each decided run with a callback URL in the transaction that stores it. */
  setDecidedRunsHook(hook: DecidedRunsHook): void {
    this.recorder.setDecidedRunsHook(hook);
  }

  /** Queues a result for storage; resolves once it is stored. `urgent`: its caller waits (a manual run). */
  record(run: ClaimedRun, result: ExecutionResult, urgent = false): Promise<void> {
    return this.recorder.record(run, result, urgent);
  }

  /**
   * Sends a run's request; every execution, scheduled or manual, goes through
   * here, so that a stop can wait for it or end it as interrupted (its caller
   * then records the interrupted result, once).
   */
  execute(request: PreparedRequest): Promise<ExecutionResult> {
    return this.inFlight.track(this.executor.execute(request));
  }

  /** Resolves once no execution is in flight. */
  executionsIdle(): Promise<void> {
    return this.inFlight.whenIdle();
  }

  /** Ends the executions still in flight (a stop past its budget) with an interrupted result; answers how many. */
  interruptExecutions(): number {
    return this.inFlight.interrupt();
  }

  /** Stores everything queued so far (shutdown). */
  drain(): Promise<void> {
    return this.recorder.drain();
  }

  /** The jobs' final outcomes per UTC day since `since` (the caller has checked the jobs are one owner's). */
  outcomeDays(jobIds: string[], since: Date, from: ReadFrom): Promise<OutcomeDay[]> {
    return jobIds.length ? this.runs.outcomeDays(jobIds, since, from) : Promise.resolve([]);
  }

  /** The jobs whose latest final outcome since `since` is a failure (the caller has checked the jobs are one owner's). */
  failingNow(jobIds: string[], since: Date, from: ReadFrom): Promise<string[]> {
    return jobIds.length ? this.runs.failingNow(jobIds, since, from) : Promise.resolve([]);
  }

  /** The jobs' latest failure episodes since `since`, newest first (the caller has checked the jobs are one owner's). */
  failureEpisodes(jobIds: string[], since: Date, limit: number, from: ReadFrom): Promise<FailureEpisode[]> {
    return jobIds.length ? this.runs.failureEpisodes(jobIds, since, limit, from) : Promise.resolve([]);
  }

  /** The newest finished runs of a job (the caller has checked the job is the user's). */
  async latestLogs(accountId: string, jobId: string, limit: number): Promise<JobLogEntry[]> {
    return (await this.runs.latestFinished(accountId, jobId, limit)).map(toLogEntry);
  }

  /**
   * Executes a saved job now: logged as a manual run, counted in the quota
   * (403 with the plan's quota when it is used up), never retried: the user sees the outcome.
   */
  /**
   * `alsoInTransaction`: a statement of the caller's added to the transaction
   * that reserves the execution and inserts the run (the audit entry of who ran
   * it), so a refused run leaves nothing of it.
   */
  async runNow(job: RunnableJob, alsoInTransaction: (tx: Queryable, runId: string) => Promise<void> = async () => undefined): Promise<JobLogEntry> {
    const now = new Date();
    const run = await this.db.transaction(async (tx): Promise<ClaimedRun> => {
      const granted = await this.quota.reserve(tx, [{ accountId: job.accountId, plan: job.plan, period: usagePeriodOf(now), wanted: 1 }]);
      if ((granted.values().next().value ?? 0) < 1) {
        throw ApiError.forbidden({ error: 'Execution quota exceeded', plan: job.plan, execution_quota: this.quota.executionLimit(job.plan) });
      }
      try {
        const row = await this.runs.insertManual(tx, { jobId: job.id, accountId: job.accountId, at: now, owner: this.owner.id, leaseExpiry: this.settings.leaseExpiry(now, now.getTime(), job.timeoutMs) });
        const run = toClaimedRun(row, job);
        await alsoInTransaction(tx, run.runId);
        return run;
      } catch (error) {
        if (isForeignKeyViolation(error)) throw ApiError.notFound('Job not found'); // deleted meanwhile
        throw error;
      }
    });
    const result = await this.execute(this.executor.prepare({ executionId: run.runId, ...run }));
    await this.recorder.record(run, result, true);
    return {
      run_id: run.runId,
      executed_at: result.startedAt.toISOString(),
      scheduled_for: run.scheduledFor.toISOString(),
      attempt: run.attempt,
      trigger: run.trigger,
      status: result.success ? RUN_OUTCOME.success : RUN_OUTCOME.failed,
      response_code: result.responseCode,
      duration_ms: result.durationMs,
      error_message: result.errorMessage,
      response_body: result.responseBody,
      possible_duplicate: false,
      alert_note: null,
    };
  }

  /** Writes on a finished run why its failure alerted no one (the log shows it). */
  noteAlert(runId: string, scheduledFor: Date, note: string): Promise<void> {
    return this.runs.setAlertNote(runId, scheduledFor, note);
  }

  /** Inserts the runs of a claim inside its transaction; answers the leased ones (a due time already taken is skipped). */
  insertClaimed(tx: Queryable, runs: NewRun[], now: number): Promise<LeasedRunRow[]> {
    const rows: NewRunRows = { jobIds: [], accountIds: [], triggers: [], scheduledFor: [], states: [], statuses: [], leaseOwners: [], leaseExpiries: [], executedAt: [], errors: [], skipReasons: [] };
    for (const run of runs) {
      const leased = run.outcome === 'leased';
      rows.jobIds.push(run.jobId);
      rows.accountIds.push(run.accountId);
      rows.triggers.push(run.trigger);
      rows.scheduledFor.push(run.scheduledFor);
      rows.states.push(leased ? RUN_STATE.running : RUN_STATE.done);
      rows.statuses.push(leased ? null : run.outcome);
      rows.leaseOwners.push(leased ? this.owner.id : null);
      rows.leaseExpiries.push(leased ? this.settings.leaseExpiry(run.scheduledFor, now, run.timeoutMs) : null);
      rows.executedAt.push(leased ? null : run.scheduledFor);
      rows.errors.push(leased ? null : run.error);
      rows.skipReasons.push(leased ? null : (run.skipReason ?? null));
    }
    return this.runs.insertClaimed(tx, rows);
  }

  /**
   * Runs are leased for the default time limit; those whose job asks for
   * longer get the rest here, once their requests are known (one UPDATE, and
   * only when there are such runs), so no run is taken over while its
   * request may still be answered, and none is held longer than its own.
   */
  async extendLeases(tx: Queryable, runs: ClaimedRun[], now: number): Promise<void> {
    const longer = runs.filter((r) => this.settings.leaseMsFor(r.timeoutMs) > this.settings.leaseMs);
    if (longer.length === 0) return;
    await this.runs.extendLeases(tx, longer.map((r) => r.runId), longer.map((r) => this.settings.leaseExpiry(r.dueAt, now, r.timeoutMs)), this.owner.id);
  }

  /** Leases queued runs (retries) due by `horizon`. */
  leaseQueued(tx: Queryable, horizon: Date, limit: number, now: number): Promise<LeasedRunRow[]> {
    return this.runs.leaseQueued(tx, horizon, limit, this.owner.id, new Date(now), this.settings.leaseMs);
  }

  /** Takes over runs whose lease expired because their instance died. */
  leaseExpired(tx: Queryable, limit: number, now: number): Promise<LeasedRunRow[]> {
    return this.runs.leaseExpired(tx, new Date(now), limit, this.owner.id, this.settings.leaseMs);
  }

  /**
   * Takes over the runs of dead instances, ids unchanged (see
   * JobRunsRepository.leaseOfDead): those in `dispatched` come back uncertain.
   */
  leaseOfDead(tx: Queryable, dead: { owners: string[]; otherProcesses: boolean }, dispatched: string[], limit: number, now: number): Promise<LeasedRunRow[]> {
    if (dead.owners.length === 0 && !dead.otherProcesses) return Promise.resolve([]);
    const query = { owners: dead.owners, otherProcessesThan: dead.otherProcesses ? LeaseOwner.processPrefix : null };
    return this.runs.leaseOfDead(tx, query, dispatched, limit, this.owner.id, new Date(now), this.settings.leaseMs);
  }

  /**
   * Records a run that may have reached its target before its instance died,
   * for a job that is never sent twice: failed, outcome unknown, no retry.
   */
  recordUnknownOutcome(run: ClaimedRun): Promise<void> {
    return this.recorder.record(run, {
      success: false,
      startedAt: run.dueAt,
      responseCode: null,
      durationMs: 0,
      responseBody: null,
      errorMessage: OUTCOME_UNKNOWN,
      retryable: false,
    });
  }

  /** Gives back runs claimed ahead of time but not started (shutdown), so another instance fires them on time. */
  async release(runIds: string[]): Promise<void> {
    if (runIds.length > 0) await this.runs.release(runIds, this.owner.id);
  }

  /**
   * Undoes claims of a job paused (or deleted) before their instant. A first
   * attempt is removed and its execution given back to the quota, as if it
   * had never been claimed: a paused job logs nothing for its paused due
   * times, and a resume before the instant claims that due time afresh (the
   * unique key would otherwise be taken by a skipped row, and the run lost).
   * A claimed retry is recorded as skipped: its failure episode ends there.
   */
  async unclaim(runIds: string[]): Promise<void> {
    if (runIds.length === 0) return;
    await this.db.transaction(async (tx) => {
      const gone = await this.runs.deleteUnstartedFirstAttempts(tx, runIds, this.owner.id);
      await this.quota.refund(tx, refundsOf(gone, (accountId, period) => this.quota.grantKey(accountId, period)));
      await this.runs.skipWithdrawn(tx, runIds, this.owner.id);
    });
  }

  /** Of the given jobs, those with a run due before `before` still leased to another instance (see RunDispatcher's overlap check). */
  inFlightElsewhere(jobIds: string[], before: Date): Promise<string[]> {
    return jobIds.length ? this.runs.inFlightElsewhere(jobIds, before, this.owner.id) : Promise.resolve([]);
  }

  /**
   * Records claimed, unstarted runs as skipped because the previous run of
   * their job was still in flight (overlap: skip). Nothing was sent, so their
   * executions go back to the quota.
   */
  async skipOverlapping(runIds: string[]): Promise<void> {
    if (runIds.length === 0) return;
    await this.db.transaction(async (tx) => {
      const skipped = await this.runs.skipOverlapping(tx, runIds, this.owner.id);
      await this.quota.refund(tx, refundsOf(skipped, (accountId, period) => this.quota.grantKey(accountId, period)));
    });
  }

  /** The earliest instant a queued run falls due or a lease expires. */
  earliestDue(): Promise<Date | null> {
    return this.runs.earliestDue();
  }

  /**
   * Keeps the run history's weekly partitions four weeks ahead, drops the
   * weeks that ended more than 90 days ago, and keeps each job's newest 1,000
   * finished runs. Queued and running runs are never pruned.
   */
  async pruneLogs(): Promise<void> {
    await this.runs.ensurePartitions(PARTITION_DAYS_AHEAD);
    await this.runs.pruneOlderThan(RETENTION_DAYS);
    await this.runs.pruneBeyond(RETENTION_RUNS_PER_JOB);
  }
}

/** One quota refund per user and month for runs given back. */
function refundsOf(runs: Array<{ account_id: string; scheduled_for: Date }>, grantKey: (accountId: string, period: string) => string): Array<{ accountId: string; period: string; count: number }> {
  const refunds = new Map<string, { accountId: string; period: string; count: number }>();
  for (const run of runs) {
    const period = usagePeriodOf(new Date(run.scheduled_for));
    const key = grantKey(run.account_id, period);
    const refund = refunds.get(key) ?? { accountId: run.account_id, period, count: 0 };
    refund.count++;
    refunds.set(key, refund);
  }
  return [...refunds.values()];
}
