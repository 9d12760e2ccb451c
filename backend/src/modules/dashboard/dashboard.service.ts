import { Injectable } from '@nestjs/common';
import type { DashboardStats } from '@cronbeam/shared/jobs/job-types';
import { ACTIVE_JOB_STATUSES } from '@cronbeam/shared/jobs/job-types';
import { PLAN_LIMITS } from '@cronbeam/shared/plans';
import { TeamsService } from '../teams/teams.service';
import { DeploymentsService } from '../deployments/deployments.service';
import { JobsService } from '../jobs/jobs.service';
import { MonitorsService } from '../monitors/monitors.service';
import { QuotaService } from '../quota/quota.service';

/** The dashboard's stat cards, computed from the database for one user. */
@Injectable()
export class DashboardService {
  constructor(
    private readonly jobs: JobsService,
    private readonly teams: TeamsService,
    private readonly deployments: DeploymentsService,
    private readonly quota: QuotaService,
    private readonly monitors: MonitorsService,
  ) {}

  async stats(accountId: string): Promise<DashboardStats> {
    const [plan, counts, executionsUsed, deploymentsUsed, monitors] = await Promise.all([
      this.teams.planOf(accountId),
      this.jobs.countByStatus(accountId),
      this.quota.executionsUsed(accountId),
      this.deployments.countThisMonth(accountId),
      this.monitors.countByStatus(accountId),
    ]);
    const totalMonitors = Object.values(monitors).reduce((sum, n) => sum + (n ?? 0), 0);
    const limits = PLAN_LIMITS[plan];
    const total = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
    return {
      total_jobs: total,
      active_jobs: ACTIVE_JOB_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0),
      failed_jobs: counts.failed ?? 0,
      job_count: total + totalMonitors,
      max_jobs: limits.maxJobs,
      total_monitors: totalMonitors,
      monitors_down: monitors.down ?? 0,
      executions_used: executionsUsed,
      execution_quota: limits.executionsPerMonth,
      plan,
      n8n_deployments_used: deploymentsUsed,
      n8n_deployments_quota: limits.deploymentsPerMonth,
    };
  }
}
