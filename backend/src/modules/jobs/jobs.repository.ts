import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { HELD_JOB_STATUSES, JOB_STATUS, type HttpMethod, type JobStatus, type ResponseRules } from '@shared/jobs/job-types';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';
import { JobEntity } from './job.entity';

const HELD = HELD_JOB_STATUSES.map((s) => `'${s}'`).join(', ');

/** The definition columns a user writes; status and run times belong to the scheduler. */
export type JobDefinitionColumns = Pick<JobEntity, 'name' | 'url' | 'method' | 'headers' | 'body' | 'cronExpression' | 'timeZone' | 'responseRules' | 'timeoutMs' | 'autoPauseAfter' | 'notifyOnFailure'>;

/** What executing a job needs, by job id. */
export interface JobRequestRow {
  id: string;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string;
  notify_on_failure: boolean;
  response_rules: ResponseRules | null;
  timeout_ms: number | null;
}

/** A job whose next run has come, locked for the claim. */
export interface DueJobRow extends JobRequestRow {
  user_id: string;
  cron_expression: string;
  time_zone: string;
  next_run_at: Date;
}

/** A job applyResults just paused for its consecutive failures (RETURNING sees the new values). */
export interface AutoPausedJobRow {
  id: string;
  user_id: string;
  name: string;
  auto_pause_after: number;
  auto_paused: boolean;
}

/** A job the quota stopped. */
export interface HeldJobRow {
  id: string;
  user_id: string;
  cron_expression: string;
  time_zone: string;
}

/** Every SQL statement on `jobs`, one per function. Queries for a user's job are scoped by user id. */
@Injectable()
export class JobsRepository {
  constructor(@InjectRepository(JobEntity) private readonly jobs: Repository<JobEntity>) {}

  /** Runs `work` in a transaction (for statements that must commit together). */
  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.jobs.manager.transaction(work);
  }

  /** Oldest first, so the dashboard's "first 5" are stable. */
  listOwned(userId: string): Promise<JobEntity[]> {
    return this.jobs.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findOwned(userId: string, jobId: string): Promise<JobEntity | null> {
    return this.jobs.findOneBy({ id: jobId, userId });
  }

  /** Serialises the user's job creations until the transaction ends, so two cannot both take the last slot. */
  async lockUserJobs(tx: EntityManager, userId: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`jobs:${userId}`]);
  }

  countOwned(tx: EntityManager, userId: string): Promise<number> {
    return tx.countBy(JobEntity, { userId });
  }

  insert(tx: EntityManager, fields: Partial<JobEntity>): Promise<JobEntity> {
    return tx.save(tx.create(JobEntity, fields));
  }

  /** Writes only the definition's columns (the scheduler updates status and run times concurrently); a paused job keeps no next run. */
  async updateDefinition(userId: string, jobId: string, columns: JobDefinitionColumns, nextRunAt: Date | null): Promise<void> {
    await this.jobs
      .createQueryBuilder()
      .update(JobEntity)
      .set({ ...columns, nextRunAt: () => `CASE WHEN status = '${JOB_STATUS.paused}' THEN NULL ELSE :next::timestamptz END` })
      .setParameter('next', nextRunAt)
      .where('id = :id AND user_id = :userId', { id: jobId, userId })
      .execute();
  }

  /** job_runs and job_alert_states reference jobs ON DELETE CASCADE: the job's logs go with it. */
  async deleteOwned(userId: string, jobId: string): Promise<void> {
    await this.jobs.delete({ id: jobId, userId });
  }

  async setSchedule(userId: string, jobId: string, status: JobStatus, nextRunAt: Date | null): Promise<void> {
    await this.jobs.update({ id: jobId, userId }, { status, nextRunAt });
  }

  async countByStatus(userId: string): Promise<Array<{ status: JobStatus; count: string }>> {
    return this.jobs
      .createQueryBuilder('j')
      .select('j.status', 'status')
      .addSelect('count(*)', 'count')
      .where('j.user_id = :userId', { userId })
      .groupBy('j.status')
      .getRawMany();
  }

  /** Locks up to `limit` jobs due by `horizon` (skipping those another claimer holds), earliest first. */
  lockDue(tx: Queryable, horizon: Date, limit: number): Promise<DueJobRow[]> {
    return tx.query(
      `SELECT id, user_id, cron_expression, time_zone, next_run_at, url, method, headers, body, notify_on_failure, response_rules, timeout_ms
       FROM jobs
       WHERE next_run_at <= $1 AND next_run_at IS NOT NULL AND status NOT IN (${HELD})
       ORDER BY next_run_at
       LIMIT $2
       FOR UPDATE SKIP LOCKED`,
      [horizon, limit],
    );
  }

  /** Moves claimed jobs to their next due time; a job over its quota goes to quota_reached with no next run. */
  async advance(tx: Queryable, jobIds: string[], nextRunAt: (Date | null)[], overQuota: boolean[]): Promise<void> {
    await tx.query(
      `UPDATE jobs j SET
         next_run_at = CASE WHEN v.over_quota THEN NULL ELSE v.next_run_at END,
         status = CASE WHEN v.over_quota THEN '${JOB_STATUS.quotaReached}' ELSE j.status END
       FROM unnest($1::uuid[], $2::timestamptz[], $3::boolean[]) AS v(id, next_run_at, over_quota)
       WHERE j.id = v.id`,
      [jobIds, nextRunAt, overQuota],
    );
  }

  requests(tx: Queryable, jobIds: string[]): Promise<JobRequestRow[]> {
    return tx.query(`SELECT id, url, method, headers, body, notify_on_failure, response_rules, timeout_ms FROM jobs WHERE id = ANY($1::uuid[])`, [jobIds]);
  }

  /** The earliest next run of a job the scheduler may fire. */
  async earliestNextRun(): Promise<Date | null> {
    const [row]: Array<{ at: Date | null }> = await this.jobs.query(
      `SELECT min(next_run_at) AS at FROM jobs WHERE next_run_at IS NOT NULL AND status NOT IN (${HELD})`,
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** Jobs the quota stopped (of one user, or of everyone). */
  quotaHeld(userId: string | null): Promise<HeldJobRow[]> {
    return this.jobs.query(
      `SELECT id, user_id, cron_expression, time_zone FROM jobs WHERE status = '${JOB_STATUS.quotaReached}' AND ($1::uuid IS NULL OR user_id = $1)`,
      [userId],
    );
  }

  /** Puts quota-stopped jobs back on their schedule; answers how many were still held. */
  async restoreHeld(jobIds: string[], nextRunAt: (Date | null)[]): Promise<number> {
    const rows = returnedRows(
      await this.jobs.query(
        `UPDATE jobs j SET status = '${JOB_STATUS.scheduled}', next_run_at = v.next_run_at
         FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, next_run_at)
         WHERE j.id = v.id AND j.status = '${JOB_STATUS.quotaReached}'
         RETURNING j.id`,
        [jobIds, nextRunAt],
      ),
    );
    return rows.length;
  }

  /**
   * Applies stored execution results: the latest final outcome per job becomes
   * its status (a null status, a failure that will be retried, leaves it as it
   * was), and last_run_at moves forward. Paused and quota_reached are the
   * user's or the quota's decision, never overwritten by a result.
   * Consecutive failed runs are counted (a success resets the count, the
   * failures of one batch all count); a job whose count reaches its
   * auto_pause_after is paused in the same statement. Answers the jobs paused so.
   */
  async applyResults(tx: Queryable, jobIds: string[], statuses: (string | null)[], executedAt: Date[]): Promise<AutoPausedJobRow[]> {
    return returnedRows<AutoPausedJobRow>(
      await tx.query(
        `UPDATE jobs j SET
           consecutive_failures = n.failures,
           status = CASE
             WHEN o.status IN (${HELD}) THEN o.status
             WHEN o.auto_pause_after IS NOT NULL AND n.failures >= o.auto_pause_after THEN '${JOB_STATUS.paused}'
             WHEN v.status IS NULL THEN o.status
             ELSE v.status END,
           next_run_at = CASE WHEN o.status NOT IN (${HELD}) AND o.auto_pause_after IS NOT NULL AND n.failures >= o.auto_pause_after THEN NULL ELSE o.next_run_at END,
           last_run_at = greatest(o.last_run_at, v.executed_at)
         FROM (SELECT DISTINCT ON (id) * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS u(id, status, executed_at)
               ORDER BY id, executed_at DESC) v
         JOIN jobs o ON o.id = v.id
         CROSS JOIN LATERAL (
           SELECT CASE WHEN v.status = '${JOB_STATUS.success}' THEN 0
                       ELSE o.consecutive_failures + (SELECT count(*)::int FROM unnest($1::uuid[], $2::text[]) AS f(id, status) WHERE f.id = o.id AND f.status = '${JOB_STATUS.failed}')
                  END AS failures
         ) n
         WHERE j.id = v.id
         RETURNING j.id, j.user_id, j.name, j.auto_pause_after, (o.status NOT IN (${HELD}) AND j.status = '${JOB_STATUS.paused}') AS auto_paused`,
        [jobIds, statuses, executedAt],
      ),
    ).filter((row) => row.auto_paused);
  }

  /** Pauses the user's jobs beyond their oldest `keep` (the newest ones first); answers the paused ids. */
  async pauseNewestBeyond(userId: string, keep: number): Promise<string[]> {
    const rows = returnedRows<{ id: string }>(
      await this.jobs.query(
        `UPDATE jobs SET status = '${JOB_STATUS.paused}', next_run_at = NULL
         WHERE id IN (
           SELECT id FROM jobs WHERE user_id = $1 ORDER BY created_at ASC, id ASC OFFSET $2
         ) AND status <> '${JOB_STATUS.paused}'
         RETURNING id`,
        [userId, keep],
      ),
    );
    return rows.map((r) => r.id);
  }
}
