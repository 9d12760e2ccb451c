import { Injectable } from '@nestjs/common';
import type { JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import type { Actor } from '../audit';
import { AuditService } from '../audit/audit.service';
import { UsersService } from '../auth/users.service';
import { RunsService } from '../runs/runs.service';
import { JobsService } from './jobs.service';

/** The runs of one of the caller's saved jobs: running it now and reading its newest runs (404 when the job is not the caller's). */
@Injectable()
export class JobRunsService {
  constructor(
    private readonly jobs: JobsService,
    private readonly users: UsersService,
    private readonly runs: RunsService,
    private readonly audit: AuditService,
  ) {}

  /** The job's newest finished runs. */
  async logs(userId: string, jobId: string, limit: number): Promise<JobLogEntry[]> {
    const job = await this.jobs.findOwned(userId, jobId);
    return this.runs.latestLogs(userId, job.id, limit);
  }

  /** Executes a saved job now: logged as a manual run and counted in the quota. */
  async runNow(actor: Actor, userId: string, jobId: string): Promise<JobLogEntry> {
    const job = await this.jobs.requestOwned(userId, jobId);
    const plan = await this.users.getPlan(userId);
    // The entry says who ran the job, written with the run (a run the quota refuses leaves none).
    return this.runs.runNow({ ...job, userId, plan }, (tx, runId) =>
      this.audit.record(tx, actor, { action: 'job.run_requested', targetType: 'job', targetId: job.id, changes: { run_id: { before: null, after: runId } } }),
    );
  }
}
