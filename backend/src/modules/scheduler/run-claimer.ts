import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { toClaimedRun, type ClaimedRun, type ClaimedRunRow } from './claimed-run';
import { planDue, type DuePlan } from './due-instants';
import { SchedulerInstance } from './scheduler-instance';
import { SchedulerSettings } from './scheduler-settings';
import { monthlyExecutionLimit, quotaKey, reserveExecutions, usagePeriodStart } from './usage-quota';

interface DueJobRow {
  id: string;
  user_id: string;
  cron_expression: string;
  next_run_at: Date;
  plan: string;
}

/** One row to insert into job_runs, as parallel arrays for a single unnest() INSERT. */
class RunRows {
  jobIds: string[] = [];
  userIds: string[] = [];
  triggers: string[] = [];
  scheduledFor: Date[] = [];
  states: string[] = [];
  statuses: (string | null)[] = [];
  leaseOwners: (string | null)[] = [];
  leaseExpiries: (Date | null)[] = [];
  executedAt: (Date | null)[] = [];
  errors: (string | null)[] = [];
  skipReasons: (string | null)[] = [];

  push(r: {
    jobId: string;
    userId: string;
    trigger: string;
    scheduledFor: Date;
    state: 'running' | 'done';
    status?: 'skipped' | 'missed';
    leaseOwner?: string;
    leaseExpiry?: Date;
    error?: string;
    skipReason?: string;
  }): void {
    this.jobIds.push(r.jobId);
    this.userIds.push(r.userId);
    this.triggers.push(r.trigger);
    this.scheduledFor.push(r.scheduledFor);
    this.states.push(r.state);
    this.statuses.push(r.status ?? null);
    this.leaseOwners.push(r.leaseOwner ?? null);
    this.leaseExpiries.push(r.leaseExpiry ?? null);
    this.executedAt.push(r.state === 'done' ? r.scheduledFor : null);
    this.errors.push(r.error ?? null);
    this.skipReasons.push(r.skipReason ?? null);
  }
}

/** Columns of a claimed run plus its job's request, shared by every claim query. */
const CLAIMED_COLUMNS = `r.id AS run_id, r.job_id, r.user_id, r.trigger, r.scheduled_for, r.attempt, r.due_at,
  j.notify_on_failure, j.url, j.method, j.headers, j.body`;

/**
 * The scheduler's short transactions. Each one locks what it takes with
 * FOR UPDATE SKIP LOCKED, so any number of instances can claim side by side
 * without waiting on or double-taking each other's rows, and the unique
 * (job_id, scheduled_for, attempt) index makes a second firing of the same
 * due time impossible even if two claims ever raced.
 */
@Injectable()
export class RunClaimer {
  private readonly logger = new Logger(RunClaimer.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly settings: SchedulerSettings,
    private readonly instance: SchedulerInstance,
  ) {}

  /**
   * Claims jobs due by `horizon`: advances each one's next_run_at, inserts its
   * run leased to this instance (or skipped for quota, or missed after an
   * outage), counts usage. Returns the runs to execute; `more` when the batch was full.
   */
  async claimDueJobs(horizon: Date, now: number): Promise<{ runs: ClaimedRun[]; more: boolean }> {
    return this.db.transaction(async (em) => {
      const jobs: DueJobRow[] = await em.query(
        `SELECT j.id, j.user_id, j.cron_expression, j.next_run_at, u.plan
         FROM jobs j JOIN users u ON u.id = j.user_id
         WHERE j.next_run_at <= $1 AND j.next_run_at IS NOT NULL AND j.status NOT IN ('paused', 'quota_reached')
         ORDER BY j.next_run_at
         LIMIT $2
         FOR UPDATE OF j SKIP LOCKED`,
        [horizon, this.settings.batchSize],
      );
      if (jobs.length === 0) return { runs: [], more: false };

      // Jobs of a burst share their expression and due time: plan each pair once per batch.
      const planned = new Map<string, DuePlan>();
      const plans = jobs.map((job) => {
        const dueAt = new Date(job.next_run_at);
        const key = `${dueAt.getTime()} ${job.cron_expression}`;
        let due = planned.get(key);
        if (!due) {
          due = planDue(job.cron_expression, dueAt, now, this.settings.pollIntervalMs * 2 + this.settings.lookaheadMs);
          planned.set(key, due);
        }
        return { job, due };
      });
      const wanted = new Map<string, { userId: string; plan: string; period: string; wanted: number }>();
      for (const { job, due } of plans) {
        const period = usagePeriodStart(due.fire);
        const k = quotaKey(job.user_id, period);
        const entry = wanted.get(k) ?? { userId: job.user_id, plan: job.plan, period, wanted: 0 };
        entry.wanted++;
        wanted.set(k, entry);
      }
      const granted = await reserveExecutions(em, [...wanted.values()]);

      const rows = new RunRows();
      const overQuota: string[] = [];
      for (const { job, due } of plans) {
        for (const missed of due.missed) {
          rows.push({ jobId: job.id, userId: job.user_id, trigger: 'schedule', scheduledFor: missed, state: 'done', status: 'missed', error: 'Missed: the scheduler was not running at this due time; only the latest missed due time was executed' });
        }
        if (due.moreMissed) this.logger.warn(`Job ${job.id}: more than ${due.missed.length} due times were missed; the oldest ones are recorded`);
        const k = quotaKey(job.user_id, usagePeriodStart(due.fire));
        const left = granted.get(k) ?? 0;
        if (left > 0) {
          granted.set(k, left - 1);
          rows.push({ jobId: job.id, userId: job.user_id, trigger: due.recovery ? 'recovery' : 'schedule', scheduledFor: due.fire, state: 'running', leaseOwner: this.instance.id, leaseExpiry: this.settings.leaseExpiry(due.fire, now) });
        } else {
          overQuota.push(job.id);
          const limit = monthlyExecutionLimit(job.plan);
          rows.push({ jobId: job.id, userId: job.user_id, trigger: 'schedule', scheduledFor: due.fire, state: 'done', status: 'skipped', skipReason: 'quota', error: `Skipped: the monthly execution quota of ${limit} for the ${job.plan} plan is used up` });
        }
      }

      const inserted: ClaimedRunRow[] = await em.query(
        `WITH new_runs AS (
           INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, due_at, state, status, lease_owner, lease_expires_at, executed_at, finished_at, error_message, skip_reason)
           SELECT v.job_id, v.user_id, v.trigger, v.scheduled_for, v.scheduled_for, v.state, v.status, v.lease_owner, v.lease_expires_at, v.executed_at, v.executed_at, v.error_message, v.skip_reason
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[], $10::text[], $11::text[])
             AS v(job_id, user_id, trigger, scheduled_for, state, status, lease_owner, lease_expires_at, executed_at, error_message, skip_reason)
           ON CONFLICT (job_id, scheduled_for, attempt) WHERE trigger <> 'manual' DO NOTHING
           RETURNING *
         )
         SELECT ${CLAIMED_COLUMNS} FROM new_runs r JOIN jobs j ON j.id = r.job_id WHERE r.state = 'running'`,
        [rows.jobIds, rows.userIds, rows.triggers, rows.scheduledFor, rows.states, rows.statuses, rows.leaseOwners, rows.leaseExpiries, rows.executedAt, rows.errors, rows.skipReasons],
      );

      await em.query(
        `UPDATE jobs j SET
           next_run_at = CASE WHEN v.over_quota THEN NULL ELSE v.next_run_at END,
           status = CASE WHEN v.over_quota THEN 'quota_reached' ELSE j.status END
         FROM unnest($1::uuid[], $2::timestamptz[], $3::boolean[]) AS v(id, next_run_at, over_quota)
         WHERE j.id = v.id`,
        [plans.map((p) => p.job.id), plans.map((p) => p.due.next), plans.map((p) => overQuota.includes(p.job.id))],
      );
      return { runs: inserted.map(toClaimedRun), more: jobs.length === this.settings.batchSize };
    });
  }

  /** Claims queued runs (retries) due by `horizon`, and runs whose lease expired because their instance died. */
  async claimQueuedRuns(horizon: Date, now: number): Promise<{ runs: ClaimedRun[]; more: boolean }> {
    const queued = await this.claimRuns(`r.state = 'queued' AND r.due_at <= $1`, horizon, now);
    const orphaned = await this.claimRuns(`r.state = 'running' AND r.lease_expires_at < $1`, new Date(now), now);
    if (orphaned.length > 0) this.logger.warn(`Took over ${orphaned.length} run(s) whose lease expired`);
    return { runs: [...queued, ...orphaned], more: queued.length === this.settings.batchSize || orphaned.length === this.settings.batchSize };
  }

  private async claimRuns(condition: string, bound: Date, now: number): Promise<ClaimedRun[]> {
    return this.db.transaction(async (em: EntityManager) => {
      const rows: ClaimedRunRow[] = await em.query(
        `WITH picked AS (
           SELECT r.id FROM job_runs r
           WHERE ${condition}
           ORDER BY r.due_at
           LIMIT $2
           FOR UPDATE OF r SKIP LOCKED
         ), leased AS (
           UPDATE job_runs r SET state = 'running', lease_owner = $3,
             lease_expires_at = greatest(r.due_at, $4::timestamptz) + make_interval(secs => $5::double precision / 1000)
           FROM picked WHERE r.id = picked.id
           RETURNING r.*
         )
         SELECT ${CLAIMED_COLUMNS} FROM leased r JOIN jobs j ON j.id = r.job_id`,
        [bound, this.settings.batchSize, this.instance.id, new Date(now), this.settings.executionTimeoutMs + this.settings.leaseGraceMs],
      );
      return rows.map(toClaimedRun);
    });
  }

  /** Gives back runs claimed ahead of time but not started (shutdown), so another instance fires them on time. */
  async release(runIds: string[]): Promise<void> {
    if (runIds.length === 0) return;
    await this.db.query(
      `UPDATE job_runs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL
       WHERE id = ANY($1::uuid[]) AND state = 'running' AND lease_owner = $2`,
      [runIds, this.instance.id],
    );
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
    await this.db.transaction(async (em) => {
      await em.query(
        `WITH gone AS (
           DELETE FROM job_runs
           WHERE id = ANY($1::uuid[]) AND state = 'running' AND lease_owner = $2 AND attempt = 1
           RETURNING user_id, scheduled_for
         ), refund AS (
           SELECT user_id, date_trunc('month', scheduled_for AT TIME ZONE 'UTC')::date AS period_start, count(*)::int AS n
           FROM gone GROUP BY 1, 2
         )
         UPDATE usage_periods u SET executions = greatest(0, u.executions - refund.n)
         FROM refund WHERE u.user_id = refund.user_id AND u.period_start = refund.period_start`,
        [runIds, this.instance.id],
      );
      await em.query(
        `UPDATE job_runs SET state = 'done', status = 'skipped', skip_reason = 'paused',
           error_message = 'Skipped: the job was paused before this retry was due',
           executed_at = due_at, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
         WHERE id = ANY($1::uuid[]) AND state = 'running' AND lease_owner = $2`,
        [runIds, this.instance.id],
      );
    });
  }

  /** The earliest instant anything could become due: a job's next run, a queued retry, or an expiring lease. */
  async earliestDue(): Promise<Date | null> {
    const [row]: Array<{ at: Date | null }> = await this.db.query(
      `SELECT least(
         (SELECT min(next_run_at) FROM jobs WHERE next_run_at IS NOT NULL AND status NOT IN ('paused', 'quota_reached')),
         (SELECT min(due_at) FROM job_runs WHERE state = 'queued'),
         (SELECT min(lease_expires_at) FROM job_runs WHERE state = 'running')) AS at`,
    );
    return row?.at ? new Date(row.at) : null;
  }
}
