import { Injectable } from '@nestjs/common';
import type { JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import type { Actor } from '../audit';
import { AuditService } from '../audit/audit.service';
import { TeamsService } from '../teams/teams.service';
import { RunsService } from '../runs/runs.service';
import { JobsService } from './jobs.service';

/** The runs of one of the caller's saved jobs: running it now and reading its newest runs (404 when the job is not the caller's). */
@Injectable()
export class JobRunsService {
  constructor(
    private readonly jobs: JobsService,
    private readonly teams: TeamsService,
    private readonly runs: RunsService,
    private readonly audit: AuditService,
  ) {}

  /** The job's newest finished runs. */
  async logs(accountId: string, jobId: string, limit: number): Promise<JobLogEntry[]> {
    const job = await this.jobs.findOwned(accountId, jobId);
    return this.runs.latestLogs(accountId, job.id, limit);
  }

  /** Executes a saved job now: logged as a manual run and counted in the quota. */
  async runNow(actor: Actor, accountId: string, jobId: string): Promise<JobLogEntry> {
    const job = await this.jobs.requestOwned(accountId, jobId);
    const plan = await this.teams.planOf(accountId);
    // The entry says who ran the job, written with the run (a run the quota refuses leaves none).
    return this.runs.runNow({ ...job, accountId, plan }, (tx, runId) =>
      this.audit.record(tx, actor, { action: 'job.run_requested', targetType: 'job', targetId: job.id, changes: { run_id: { before: null, after: runId } } }),
    );
  }
}
