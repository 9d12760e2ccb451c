import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RUN_OUTCOME, RUN_STATE, RUN_TRIGGER, type RunOutcome, type RunTrigger } from '@cronbeam/shared/jobs/job-types';
import { returnedRows } from '../../common/database/query-rows';
import type { FailureEpisode, OutcomeDay } from '../../common/history/outcome-history';
import type { Queryable } from '../../common/database/transaction';
import { ReadDatabase, type ReadFrom } from '../../database/read-database';
import type { LeasedRunRow } from './claimed-run';
import { JobRunEntity } from './job-run.entity';
import { booleanArray, instantArray, integerArray, uuidArray } from '../../common/database/array-literal';

const { queued: QUEUED, running: RUNNING, done: DONE } = RUN_STATE;

/** The finished run $2 of user $1 (runs go with their job, and a job with its user: account_id scopes them). */
const STORED_ANCHOR = `id = $2 AND account_id = $1 AND state = '${DONE}' AND finished_at IS NOT NULL`;

/**
 * A run executed in a window was scheduled and created at most this many days
 * before it (a retry keeps its run's scheduled_for): the bounds on created_at
 * and scheduled_for let the query read job_runs_job_idx by range and skip the
 * weekly partitions before the window.
 */
const OUTCOME_LEAD_DAYS = 7;

/**
 * The final outcomes of jobs $1 since $2: finished successes and failures,
 * but not a failed attempt a retry followed (the retry's outcome counts).
 */
const FINAL_OUTCOMES = `SELECT r.id, r.job_id, r.executed_at, r.status FROM job_runs r
  WHERE r.job_id = ANY($1::uuid[]) AND r.state = '${DONE}' AND r.executed_at >= $2
    AND r.created_at >= $2::timestamptz - interval '${OUTCOME_LEAD_DAYS} days' AND r.scheduled_for >= $2::timestamptz - interval '${OUTCOME_LEAD_DAYS} days'
    AND r.status IN ('${RUN_OUTCOME.success}', '${RUN_OUTCOME.failed}')
    AND NOT (r.status = '${RUN_OUTCOME.failed}' AND EXISTS (SELECT 1 FROM job_runs n
      WHERE n.job_id = r.job_id AND n.scheduled_for = r.scheduled_for AND n.attempt = r.attempt + 1 AND n.trigger = '${RUN_TRIGGER.retry}'))`;

/** The columns every lease returns. */
const LEASED_COLUMNS = 'id, job_id, account_id, trigger, scheduled_for, attempt, due_at, possible_duplicate';

/** Runs to insert at claim time, as parallel arrays for a single unnest() INSERT. */
export interface NewRunRows {
  jobIds: string[];
  accountIds: string[];
  triggers: RunTrigger[];
  scheduledFor: Date[];
  states: string[];
  statuses: (RunOutcome | null)[];
  leaseOwners: (string | null)[];
  leaseExpiries: (Date | null)[];
  executedAt: (Date | null)[];
  errors: (string | null)[];
  skipReasons: (string | null)[];
}

/** A finished execution as the event stream replays it. */
export interface FinishedRunRow extends LeasedRunRow {
  executed_at: Date;
  status: 'success' | 'failed';
  response_code: number | null;
  duration_ms: number | null;
  error_message: string | null;
  /** A retry of this failure was queued. */
  will_retry: boolean;
}

/** Execution results to store, as parallel arrays. */
export interface FinishedRunRows {
  runIds: string[];
  statuses: RunOutcome[];
  executedAt: Date[];
  responseCodes: (number | null)[];
  durationsMs: number[];
  errors: (string | null)[];
  responseBodies: (string | null)[];
  /** Sent again after its instance died while it may have been on the wire. */
  possibleDuplicates: boolean[];
}

/** Retries to queue, as parallel arrays; each follows the finished run `afterRunIds[i]`. */
export interface RetryRows {
  afterRunIds: string[];
  jobIds: string[];
  accountIds: string[];
  scheduledFor: Date[];
  attempts: number[];
  dueAt: Date[];
}

/**
 * Every SQL statement on `job_runs`, one per function. A run is the
 * scheduler's queue entry (queued, then leased as running) and, once done,
 * a line of its job's log. Leases are taken FOR UPDATE SKIP LOCKED, so any
 * number of instances claim side by side, and the unique index on
 * (job_id, scheduled_for, attempt) makes a second firing of a due time impossible.
 */
@Injectable()
export class JobRunsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  /** Inserts the runs of a claim (a due time already taken is skipped); answers the leased ones. */
  insertClaimed(tx: Queryable, rows: NewRunRows): Promise<LeasedRunRow[]> {
    return tx.query(
      `WITH new_runs AS (
         INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, status, lease_owner, lease_expires_at, executed_at, finished_at, error_message, skip_reason)
         SELECT v.job_id, v.account_id, v.trigger, v.scheduled_for, v.scheduled_for, v.state, v.status, v.lease_owner, v.lease_expires_at, v.executed_at, v.executed_at, v.error_message, v.skip_reason
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[], $10::text[], $11::text[])
           AS v(job_id, account_id, trigger, scheduled_for, state, status, lease_owner, lease_expires_at, executed_at, error_message, skip_reason)
         ON CONFLICT (job_id, scheduled_for, attempt) WHERE trigger <> '${RUN_TRIGGER.manual}' DO NOTHING
         RETURNING ${LEASED_COLUMNS}, state
       )
       SELECT ${LEASED_COLUMNS} FROM new_runs WHERE state = '${RUNNING}'`,
      [uuidArray(rows.jobIds), uuidArray(rows.accountIds), rows.triggers, instantArray(rows.scheduledFor), rows.states, rows.statuses, rows.leaseOwners, instantArray(rows.leaseExpiries), instantArray(rows.executedAt), rows.errors, rows.skipReasons],
    );
  }

  /** Inserts a manual run ("run now"), leased to `owner`. */
  async insertManual(tx: Queryable, run: { jobId: string; accountId: string; at: Date; owner: string; leaseExpiry: Date }): Promise<LeasedRunRow> {
    const [row]: LeasedRunRow[] = await tx.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, lease_owner, lease_expires_at)
       VALUES ($1, $2, '${RUN_TRIGGER.manual}', $3, $3, '${RUNNING}', $4, $5)
       RETURNING ${LEASED_COLUMNS}`,
      [run.jobId, run.accountId, run.at, run.owner, run.leaseExpiry],
    );
    return row;
  }

  /** Leases queued runs (retries) due by `horizon`, earliest first. */
  leaseQueued(tx: Queryable, horizon: Date, limit: number, owner: string, now: Date, leaseMs: number): Promise<LeasedRunRow[]> {
    return tx.query(
      `WITH picked AS (
         SELECT id FROM job_runs WHERE state = '${QUEUED}' AND due_at <= $1
         ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED
       )
       UPDATE job_runs r SET state = '${RUNNING}', lease_owner = $3,
         lease_expires_at = greatest(r.due_at, $4::timestamptz) + make_interval(secs => $5::double precision / 1000)
       FROM picked WHERE r.id = picked.id
       RETURNING ${LEASED_COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')}`,
      [horizon, limit, owner, now, leaseMs],
    ).then((result) => returnedRows<LeasedRunRow>(result));
  }

  /**
   * Takes over running runs whose lease expired before `now` (their instance
   * neither finished nor handed them back in time): each may have been sent
   * (`uncertain`).
   */
  leaseExpired(tx: Queryable, now: Date, limit: number, owner: string, leaseMs: number): Promise<LeasedRunRow[]> {
    return tx.query(
      `WITH picked AS (
         SELECT id FROM job_runs WHERE state = '${RUNNING}' AND lease_expires_at < $1
         ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED
       )
       UPDATE job_runs r SET state = '${RUNNING}', lease_owner = $3,
         lease_expires_at = greatest(r.due_at, $1::timestamptz) + make_interval(secs => $4::double precision / 1000)
       FROM picked WHERE r.id = picked.id
       RETURNING ${LEASED_COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')}, true AS uncertain`,
      [now, limit, owner, leaseMs],
    ).then((result) => returnedRows<LeasedRunRow>(result));
  }

  /**
   * Takes over the runs leased to dead instances (`owners`; with
   * `otherProcessesThan`, also every owner whose id does not start with that
   * process prefix), keeping their ids. A run in
   * `dispatched` (its owner's dispatch log) or a manual one (sent as soon as
   * it was inserted) may have reached its target: it comes back `uncertain`;
   * every other one was never sent.
   */
  leaseOfDead(
    tx: Queryable,
    dead: { owners: string[]; otherProcessesThan: string | null },
    dispatched: string[],
    limit: number,
    owner: string,
    now: Date,
    leaseMs: number,
  ): Promise<LeasedRunRow[]> {
    return tx.query(
      `WITH picked AS (
         SELECT id FROM job_runs
         WHERE state = '${RUNNING}' AND (lease_owner = ANY($1::text[]) OR ($2::text IS NOT NULL AND left(lease_owner, length($2::text)) <> $2::text))
         ORDER BY due_at LIMIT $4 FOR UPDATE SKIP LOCKED
       )
       UPDATE job_runs r SET lease_owner = $5,
         lease_expires_at = greatest(r.due_at, $6::timestamptz) + make_interval(secs => $7::double precision / 1000)
       FROM picked WHERE r.id = picked.id
       RETURNING ${LEASED_COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')},
         (r.trigger = '${RUN_TRIGGER.manual}' OR r.id = ANY($3::uuid[])) AS uncertain`,
      [dead.owners, dead.otherProcessesThan, dispatched, limit, owner, now, leaseMs],
    ).then((result) => returnedRows<LeasedRunRow>(result));
  }

  /** Moves the lease expiries of runs leased to `owner` (runs whose request may take longer than the default). */
  async extendLeases(tx: Queryable, runIds: string[], expiries: Date[], owner: string): Promise<void> {
    await tx.query(
      `UPDATE job_runs r SET lease_expires_at = v.expires_at
       FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, expires_at)
       WHERE r.id = v.id AND r.state = '${RUNNING}' AND r.lease_owner = $3`,
      [runIds, expiries, owner],
    );
  }

  /** Puts leased, unstarted runs back in the queue (shutdown). */
  async release(runIds: string[], owner: string): Promise<void> {
    await this.db.query(
      `UPDATE job_runs SET state = '${QUEUED}', lease_owner = NULL, lease_expires_at = NULL
       WHERE id = ANY($1::uuid[]) AND state = '${RUNNING}' AND lease_owner = $2`,
      [runIds, owner],
    );
  }

  /** Deletes unstarted first attempts leased to `owner`; answers whose and when they were, for the quota refund. */
  deleteUnstartedFirstAttempts(tx: Queryable, runIds: string[], owner: string): Promise<Array<{ account_id: string; scheduled_for: Date }>> {
    return tx.query(
      `DELETE FROM job_runs
       WHERE id = ANY($1::uuid[]) AND state = '${RUNNING}' AND lease_owner = $2 AND attempt = 1
       RETURNING account_id, scheduled_for`,
      [runIds, owner],
    ).then((result) => returnedRows<{ account_id: string; scheduled_for: Date }>(result));
  }

  /** Records unstarted retries leased to `owner` as skipped: their job was paused. */
  async skipWithdrawn(tx: Queryable, runIds: string[], owner: string): Promise<void> {
    await tx.query(
      `UPDATE job_runs SET state = '${DONE}', status = '${RUN_OUTCOME.skipped}', skip_reason = 'paused',
         error_message = 'Skipped: the job was paused before this retry was due',
         executed_at = due_at, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
       WHERE id = ANY($1::uuid[]) AND state = '${RUNNING}' AND lease_owner = $2`,
      [runIds, owner],
    );
  }

  /**
   * Of the given jobs, those with an earlier run (due before `before`) still
   * leased to an instance other than `owner`: in flight elsewhere, or waiting
   * for the takeover of a dead instance.
   */
  async inFlightElsewhere(jobIds: string[], before: Date, owner: string): Promise<string[]> {
    const rows: Array<{ job_id: string }> = await this.db.query(
      `SELECT DISTINCT job_id FROM job_runs
       WHERE job_id = ANY($1::uuid[]) AND state = '${RUNNING}' AND due_at < $2 AND lease_owner IS DISTINCT FROM $3`,
      [jobIds, before, owner],
    );
    return rows.map((r) => r.job_id);
  }

  /** Records unstarted runs leased to `owner` as skipped because their job's previous run was in flight; answers them for the quota refund. */
  skipOverlapping(tx: Queryable, runIds: string[], owner: string): Promise<Array<{ account_id: string; scheduled_for: Date }>> {
    return tx.query(
      `UPDATE job_runs SET state = '${DONE}', status = '${RUN_OUTCOME.skipped}', skip_reason = 'overlap',
         error_message = 'Skipped: the previous run of this job was still in flight (overlap: skip)',
         executed_at = due_at, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
       WHERE id = ANY($1::uuid[]) AND state = '${RUNNING}' AND lease_owner = $2
       RETURNING account_id, scheduled_for`,
      [runIds, owner],
    ).then((result) => returnedRows<{ account_id: string; scheduled_for: Date }>(result));
  }

  /** The earliest instant a queued run falls due or a lease expires. */
  async earliestDue(): Promise<Date | null> {
    const [row]: Array<{ at: Date | null }> = await this.db.query(
      `SELECT least(
         (SELECT min(due_at) FROM job_runs WHERE state = '${QUEUED}'),
         (SELECT min(lease_expires_at) FROM job_runs WHERE state = '${RUNNING}')) AS at`,
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** Stores results of runs still leased to `owner`; answers the ids stored (a lease lost to another instance is not). */
  async finish(tx: Queryable, rows: FinishedRunRows, owner: string): Promise<string[]> {
    const stored = returnedRows<{ id: string }>(
      await tx.query(
        `UPDATE job_runs r SET state = '${DONE}', status = v.status, executed_at = v.executed_at, finished_at = now(),
           response_code = v.response_code, duration_ms = v.duration_ms, error_message = v.error_message,
           response_body = v.response_body, possible_duplicate = v.possible_duplicate, lease_owner = NULL, lease_expires_at = NULL
         FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $9::boolean[])
           AS v(id, status, executed_at, response_code, duration_ms, error_message, response_body, possible_duplicate)
         WHERE r.id = v.id AND r.state = '${RUNNING}' AND r.lease_owner = $8
         RETURNING r.id`,
        [uuidArray(rows.runIds), rows.statuses, instantArray(rows.executedAt), integerArray(rows.responseCodes), integerArray(rows.durationsMs), rows.errors, rows.responseBodies, owner, booleanArray(rows.possibleDuplicates)],
      ),
    );
    return stored.map((r) => r.id);
  }

  /**
   * Queues retries. A retry whose finished run is gone (its job was deleted
   * meanwhile: runs go with their job) is not queued.
   */
  async queueRetries(tx: Queryable, rows: RetryRows): Promise<void> {
    await tx.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, attempt, due_at, state)
       SELECT v.job_id, v.account_id, '${RUN_TRIGGER.retry}', v.scheduled_for, v.attempt, v.due_at, '${QUEUED}'
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::int[], $6::timestamptz[])
         AS v(after_run_id, job_id, account_id, scheduled_for, attempt, due_at)
       WHERE EXISTS (SELECT 1 FROM job_runs f WHERE f.id = v.after_run_id)
       ON CONFLICT (job_id, scheduled_for, attempt) WHERE trigger <> '${RUN_TRIGGER.manual}' DO NOTHING`,
      [rows.afterRunIds, rows.jobIds, rows.accountIds, rows.scheduledFor, rows.attempts, rows.dueAt],
    );
  }

  /** A job's finished runs, newest first; skipped and missed runs never executed and sort by the instant they were due. Shown only: from the replica. */
  latestFinished(accountId: string, jobId: string, limit: number): Promise<JobRunEntity[]> {
    return this.read
      .manager('replica')
      .getRepository(JobRunEntity)
      .createQueryBuilder('r')
      .where('r.job_id = :jobId AND r.account_id = :accountId AND r.state = :state', { jobId, accountId, state: DONE })
      .orderBy('COALESCE(r.executed_at, r.scheduled_for)', 'DESC')
      .addOrderBy('r.created_at', 'DESC')
      .limit(limit)
      .getMany();
  }

  /** A finished run's alert note; the partition key narrows the update to the run's week. */
  async setAlertNote(runId: string, scheduledFor: Date, note: string): Promise<void> {
    await this.db.query(`UPDATE job_runs SET alert_note = $3 WHERE id = $1 AND scheduled_for = $2`, [runId, scheduledFor, note]);
  }

  /** Whether `runId` is a finished run of the account's that has been stored. */
  async isStoredRunOf(accountId: string, runId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM job_runs WHERE ${STORED_ANCHOR}`, [accountId, runId]);
    return rows.length > 0;
  }

  /**
   * The account's executions stored since the run `afterRunId` (its whole write
   * batch included, itself excluded), oldest first. The anchor's time stays in
   * SQL: a JavaScript Date would drop its microseconds.
   */
  storedSince(accountId: string, afterRunId: string, limit: number): Promise<FinishedRunRow[]> {
    return this.db.query(
      `SELECT r.id, r.job_id, r.account_id, r.trigger, r.attempt, r.scheduled_for, r.due_at, r.executed_at, r.status,
              r.response_code, r.duration_ms, r.error_message,
              (r.status = '${RUN_OUTCOME.failed}' AND EXISTS (
                 SELECT 1 FROM job_runs n
                 WHERE n.job_id = r.job_id AND n.scheduled_for = r.scheduled_for AND n.attempt = r.attempt + 1 AND n.trigger = '${RUN_TRIGGER.retry}'
              )) AS will_retry
       FROM job_runs r
       WHERE r.account_id = $1
         AND r.state = '${DONE}' AND r.status IN ('${RUN_OUTCOME.success}', '${RUN_OUTCOME.failed}') AND r.executed_at IS NOT NULL
         AND r.finished_at >= (SELECT finished_at FROM job_runs WHERE ${STORED_ANCHOR}) AND r.id <> $2
       ORDER BY r.finished_at, r.executed_at, r.id
       LIMIT $3`,
      [accountId, afterRunId, limit],
    );
  }

  /** Each job's final outcomes per UTC day since `since` (one query over the jobs' finished runs). */
  async outcomeDays(jobIds: string[], since: Date, from: ReadFrom): Promise<OutcomeDay[]> {
    const rows: Array<{ job_id: string; day: number; ok: number; failed: number }> = await this.read.query(
      from,
      `SELECT job_id, floor(extract(epoch FROM executed_at) / 86400)::int AS day,
              count(*) FILTER (WHERE status = '${RUN_OUTCOME.success}')::int AS ok, count(*) FILTER (WHERE status = '${RUN_OUTCOME.failed}')::int AS failed
         FROM (${FINAL_OUTCOMES}) o
        GROUP BY job_id, day`,
      [jobIds, since],
    );
    return rows.map((r) => ({ subjectId: r.job_id, day: r.day, ok: r.ok, failed: r.failed }));
  }

  /** The jobs whose latest final outcome since `since` is a failure. */
  async failingNow(jobIds: string[], since: Date, from: ReadFrom): Promise<string[]> {
    const rows: Array<{ job_id: string }> = await this.read.query(
      from,
      `SELECT job_id FROM (SELECT DISTINCT ON (job_id) job_id, status FROM (${FINAL_OUTCOMES}) o ORDER BY job_id, executed_at DESC, id DESC) latest
        WHERE status = '${RUN_OUTCOME.failed}'`,
      [jobIds, since],
    );
    return rows.map((r) => r.job_id);
  }

  /**
   * The jobs' latest failure episodes since `since`, newest first: failed
   * final outcomes in a row (those after the same number of successes form
   * one), each ended by the success after it.
   */
  async failureEpisodes(jobIds: string[], since: Date, limit: number, from: ReadFrom): Promise<FailureEpisode[]> {
    const rows: Array<{ job_id: string; started_at: Date; resolved_at: Date | null; failures: number }> = await this.read.query(
      from,
      `WITH o AS (
         SELECT job_id, executed_at, status = '${RUN_OUTCOME.success}' AS ok,
                count(*) FILTER (WHERE status = '${RUN_OUTCOME.success}') OVER (PARTITION BY job_id ORDER BY executed_at, id) AS successes
           FROM (${FINAL_OUTCOMES}) f),
       ends AS (SELECT job_id, successes, executed_at FROM o WHERE ok)
       SELECT f.job_id, min(f.executed_at) AS started_at, count(*)::int AS failures, min(e.executed_at) AS resolved_at
         FROM o f LEFT JOIN ends e ON e.job_id = f.job_id AND e.successes = f.successes + 1
        WHERE NOT f.ok
        GROUP BY f.job_id, f.successes
        ORDER BY started_at DESC
        LIMIT $3`,
      [jobIds, since, limit],
    );
    return rows.map((r) => ({ subjectId: r.job_id, startedAt: new Date(r.started_at), resolvedAt: r.resolved_at ? new Date(r.resolved_at) : null, failures: r.failures }));
  }

  /**
   * Creates the weekly partitions from last week to `daysAhead` days ahead
   * that do not exist yet (job_runs_ensure_partitions, made by the
   * partitioning migration); answers how many were created.
   */
  async ensurePartitions(daysAhead: number): Promise<number> {
    const [row]: Array<{ created: number }> = await this.db.query(
      `SELECT job_runs_ensure_partitions(now() - interval '7 days', now() + make_interval(days => $1)) AS created`,
      [daysAhead],
    );
    return row.created;
  }

  /**
   * Drops the weekly partitions that ended more than `days` ago and hold only
   * finished runs (no row-by-row DELETE, so no vacuum work), then deletes the
   * finished runs that old kept elsewhere (the default partition, a week held
   * by a run still unfinished): partition pruning limits that DELETE to them.
   * Answers the partitions dropped.
   */
  async pruneOlderThan(days: number): Promise<number> {
    const [row]: Array<{ dropped: number }> = await this.db.query(`SELECT job_runs_drop_partitions(now() - make_interval(days => $1)) AS dropped`, [days]);
    await this.db.query(
      `DELETE FROM job_runs WHERE state = '${DONE}' AND scheduled_for < job_runs_week_start(now() - make_interval(days => $1))
         AND created_at < now() - make_interval(days => $1)`,
      [days],
    );
    return row.dropped;
  }

  /** Deletes each job's finished runs beyond its newest `keep`. */
  async pruneBeyond(keep: number): Promise<void> {
    await this.db.query(
      `DELETE FROM job_runs WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY job_id ORDER BY created_at DESC, id) AS n
           FROM job_runs WHERE state = '${DONE}'
         ) ranked WHERE n > $1)`,
      [keep],
    );
  }
}
