import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { JobLimitExceeded } from '@cronbeam/shared/jobs/job-types';
import { PLAN_LIMITS, type PlanId } from '@cronbeam/shared/plans';
import { pipelinedTransaction, type Queryable } from '../../common/database/transaction';
import { ApiError } from '../../common/http/api-error';
import { isPlanSlotsExceeded, PlanSlotsRepository } from './plan-slots.repository';

/**
 * The plan's job limit (`maxJobs`), which counts jobs and heartbeat monitors
 * together: the one rule for every way of creating either (a job, a bulk
 * request, an import, a clone, a monitor). Each creation calls `createWithin`
 * with its own insert.
 */
@Injectable()
export class JobLimitService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly slots: PlanSlotsRepository,
  ) {}

  max(plan: PlanId): number {
    return PLAN_LIMITS[plan].maxJobs;
  }

  /**
   * How many more jobs or monitors the account may create now: for previews
   * (the import's dry run). Read without the lock, so a creation still
   * checks under it.
   */
  async slotsLeft(accountId: string, plan: PlanId): Promise<number> {
    return Math.max(0, this.max(plan) - (await this.slots.used(accountId)));
  }

  /**
   * Runs `insert` (one statement creating jobs or monitors of the account on
   * `tx`) and keeps what it created only if the account's jobs and monitors stay
   * within the plan's limit; otherwise nothing is created and the answer is
   * 403 "Job limit exceeded". One transaction: the insert, then the account's
   * lock, then the check (its own statement, so it counts every creation
   * committed before the lock was granted, and this one), then the commit,
   * which releases the lock. Two creations therefore cannot both take the
   * last slot, on any instance. The statements are pipelined: the lock is
   * held while the server checks and commits, never across a turn of this
   * process's event loop.
   */
  async createWithin<T>(accountId: string, plan: PlanId, insert: (tx: Queryable) => Promise<T>): Promise<T> {
    const max = this.max(plan);
    try {
      const [created] = await pipelinedTransaction<[T, void, void]>(this.db, (tx) => [insert(tx), this.slots.lock(tx, accountId), this.slots.check(tx, accountId, max)]);
      return created;
    } catch (error) {
      if (!isPlanSlotsExceeded(error)) throw error;
      const detail: JobLimitExceeded = { error: 'Job limit exceeded', plan, job_count: await this.slots.used(accountId), max_jobs: max };
      throw ApiError.forbidden(detail);
    }
  }
}
