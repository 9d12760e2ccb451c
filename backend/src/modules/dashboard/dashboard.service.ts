import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { DashboardStats } from '@shared/jobs/job-types';
import { ACTIVE_JOB_STATUSES } from '@shared/jobs/job-types';
import { PLAN_LIMITS } from '@shared/plans';
import { UsersService } from '../auth/users.service';
import { DeploymentsService } from '../deployments/deployments.service';
import { JobsService } from '../jobs/jobs.service';
import { usagePeriodStart } from '../scheduler/usage-quota';

/** The dashboard's stat cards, computed from the database for one user. */
@Injectable()
export class DashboardService {
  constructor(
    private readonly jobs: JobsService,
    private readonly users: UsersService,
    private readonly deployments: DeploymentsService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async stats(userId: string): Promise<DashboardStats> {
    const [plan, counts, executionsUsed, deploymentsUsed] = await Promise.all([
      this.users.getPlan(userId),
      this.jobs.countByStatus(userId),
      this.executionsThisMonth(userId),
      this.deployments.countThisMonth(userId),
    ]);
    const limits = PLAN_LIMITS[plan];
    const total = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
    return {
      total_jobs: total,
      active_jobs: ACTIVE_JOB_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0),
      failed_jobs: counts.failed ?? 0,
      job_count: total,
      max_jobs: limits.maxJobs,
      executions_used: executionsUsed,
      execution_quota: limits.executionsPerMonth,
      plan,
      n8n_deployments_used: deploymentsUsed,
      n8n_deployments_quota: limits.deploymentsPerMonth,
    };
  }

  /** The scheduler counts executions per user in usage_periods, one row per UTC month. */
  private async executionsThisMonth(userId: string): Promise<number> {
    const rows: Array<{ executions: number }> = await this.db.query(
      'SELECT executions FROM usage_periods WHERE user_id = $1 AND period_start = $2::date',
      [userId, usagePeriodStart(new Date())],
    );
    return rows[0]?.executions ?? 0;
  }
}
