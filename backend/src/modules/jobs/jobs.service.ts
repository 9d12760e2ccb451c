import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { nextRun } from '@shared/cron/cron-schedule';
import { JOB_MESSAGES, type ValidJobDefinition } from '@shared/jobs/job-rules';
import { JOB_STATUS, type Job, type JobLimitExceeded, type JobLogEntry, type JobStatus } from '@shared/jobs/job-types';
import { isUniqueViolation } from '../../common/database/constraint-violation';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { UsersService } from '../auth/users.service';
import { HttpExecutor, type ExecutionRequest } from '../executor/http-executor.service';
import { TargetPolicy } from '../executor/target-policy.service';
import { QuotaService } from '../quota/quota.service';
import { RunsService } from '../runs/runs.service';
import { JobEvents, type JobChangeKind } from './job-events';
import { toJob } from './job-view';
import { JobEntity } from './job.entity';
import { JobsRepository, type JobDefinitionColumns } from './jobs.repository';
import { TestRunLimiter } from './test-run-limiter';

export type { JobChange, JobChangeKind } from './job-events';

const NAME_INDEX = 'jobs_user_name_key';

/** What "Test request" shows: the outcome of one unsaved request. */
export interface TestRunOutcome {
  status: 'success' | 'failed';
  response_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error_message: string | null;
}

/**
 * Every job operation of both APIs (the dashboard's /api/jobs and the
 * public /prog/jobs), for one user at a time: every query is scoped by user
 * id, and a job of someone else is indistinguishable from a missing one (404).
 * Schedule changes are announced on JobEvents after they commit.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly users: UsersService,
    private readonly quota: QuotaService,
    private readonly runs: RunsService,
    private readonly executor: HttpExecutor,
    private readonly targets: TargetPolicy,
    private readonly testRuns: TestRunLimiter,
    private readonly events: JobEvents,
  ) {}

  /** Every committed change to a job's schedule (the scheduler re-arms on it). */
  get changes$() {
    return this.events.changes$;
  }

  /** Oldest first, so the dashboard's "first 5" are stable. */
  async list(userId: string): Promise<Job[]> {
    return (await this.jobs.listOwned(userId)).map(toJob);
  }

  async get(userId: string, jobId: string): Promise<Job> {
    return toJob(await this.find(userId, jobId));
  }

  async create(userId: string, definition: ValidJobDefinition): Promise<Job> {
    this.targets.assertAllowed(definition.url);
    const plan = await this.users.getPlan(userId);
    const maxJobs = this.quota.jobLimit(plan);
    const job = await this.saveUniqueName(() =>
      this.jobs.transaction(async (tx) => {
        await this.jobs.lockUserJobs(tx, userId);
        const jobCount = await this.jobs.countOwned(tx, userId);
        if (jobCount >= maxJobs) {
          const detail: JobLimitExceeded = { error: 'Job limit exceeded', plan, job_count: jobCount, max_jobs: maxJobs };
          throw ApiError.forbidden(detail);
        }
        return this.jobs.insert(tx, { userId, ...columns(definition), status: JOB_STATUS.pending, nextRunAt: nextRun(definition.cron_expression, new Date(), definition.time_zone) });
      }),
    );
    this.announce(job, 'created');
    return toJob(job);
  }

  /** Replaces the definition; the next run is recomputed unless the job is paused. */
  async update(userId: string, jobId: string, definition: ValidJobDefinition): Promise<Job> {
    this.targets.assertAllowed(definition.url);
    const job = await this.find(userId, jobId);
    await this.saveUniqueName(() => this.jobs.updateDefinition(userId, job.id, columns(definition), nextRun(definition.cron_expression, new Date(), definition.time_zone)));
    const saved = await this.find(userId, jobId);
    this.announce(saved, 'updated');
    return toJob(saved);
  }

  async remove(userId: string, jobId: string): Promise<void> {
    const job = await this.find(userId, jobId);
    await this.jobs.deleteOwned(userId, job.id);
    this.announce({ ...job, nextRunAt: null }, 'deleted');
  }

  pause(userId: string, jobId: string): Promise<Job> {
    return this.setSchedule(userId, jobId, JOB_STATUS.paused, () => null, 'paused');
  }

  resume(userId: string, jobId: string): Promise<Job> {
    return this.setSchedule(userId, jobId, JOB_STATUS.scheduled, (job) => nextRun(job.cronExpression, new Date(), job.timeZone), 'resumed');
  }

  /** The job's newest finished runs; 404 when the job is not the caller's. */
  async logs(userId: string, jobId: string, limit: number): Promise<JobLogEntry[]> {
    const job = await this.find(userId, jobId);
    return this.runs.latestLogs(userId, job.id, limit);
  }

  /** Executes a saved job now: logged as a manual run and counted in the quota. */
  async runNow(userId: string, jobId: string): Promise<JobLogEntry> {
    const job = await this.find(userId, jobId);
    const plan = await this.users.getPlan(userId);
    return this.runs.runNow({ id: job.id, userId, plan, url: job.url, method: job.method, headers: job.headers, body: job.body, notifyOnFailure: job.notifyOnFailure });
  }

  /** Executes an unsaved definition once and answers the outcome; nothing is stored. Rate-limited per user (429). */
  async testRun(userId: string, request: Omit<ExecutionRequest, 'executionId'>): Promise<TestRunOutcome> {
    this.targets.assertAllowed(request.url);
    const wait = this.testRuns.take(userId);
    if (wait > 0) throw ApiError.tooManyRequests('Too many test requests. Please try again later.', wait);
    const result = await this.executor.execute(this.executor.prepare({ ...request, executionId: randomUUID() }));
    return {
      status: result.success ? 'success' : 'failed',
      response_code: result.responseCode,
      duration_ms: result.durationMs,
      response_body: result.responseBody,
      error_message: result.errorMessage,
    };
  }

  /** Jobs per status, for the dashboard's cards. */
  async countByStatus(userId: string): Promise<Partial<Record<JobStatus, number>>> {
    const rows = await this.jobs.countByStatus(userId);
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
  }

  /**
   * Pauses the user's jobs beyond `maxJobs`, the newest first, so the oldest
   * `maxJobs` keep running (billing: a downgrade to a smaller plan). Answers the paused job ids.
   */
  async pauseJobsBeyondLimit(userId: string, maxJobs: number): Promise<string[]> {
    const paused = await this.jobs.pauseNewestBeyond(userId, maxJobs);
    for (const jobId of paused) this.events.emit({ jobId, userId, kind: 'paused', nextRunAt: null });
    return paused;
  }

  /**
   * Puts the user's jobs held in quota_reached back on their schedule, due at
   * their next cron instant (billing: after QuotaService.resetExecutions or a
   * bigger plan). Answers how many were resumed.
   */
  async resumeQuotaHeld(userId: string, now = new Date()): Promise<number> {
    const held = await this.jobs.quotaHeld(userId);
    if (held.length === 0) return 0;
    const next = held.map((j) => nextRunOrNull(j.cron_expression, now, j.time_zone));
    const resumed = await this.jobs.restoreHeld(held.map((j) => j.id), next);
    held.forEach((j, i) => this.events.emit({ jobId: j.id, userId, kind: 'resumed', nextRunAt: next[i] }));
    return resumed;
  }

  private async find(userId: string, jobId: string): Promise<JobEntity> {
    const job = isUuid(jobId) ? await this.jobs.findOwned(userId, jobId) : null;
    if (!job) throw ApiError.notFound('Job not found');
    return job;
  }

  private async setSchedule(userId: string, jobId: string, status: JobStatus, next: (job: JobEntity) => Date | null, kind: JobChangeKind): Promise<Job> {
    const job = await this.find(userId, jobId);
    await this.jobs.setSchedule(userId, job.id, status, next(job));
    const saved = await this.find(userId, jobId);
    this.announce(saved, kind);
    return toJob(saved);
  }

  /** Runs a write and turns the per-user name index's violation into the form's field error. */
  private async saveUniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, NAME_INDEX)) throw ApiError.invalidField(['body', 'name'], JOB_MESSAGES.nameTaken);
      throw error;
    }
  }

  private announce(job: Pick<JobEntity, 'id' | 'userId' | 'nextRunAt'>, kind: JobChangeKind): void {
    this.events.emit({ jobId: job.id, userId: job.userId, kind, nextRunAt: job.nextRunAt });
  }
}

function columns(definition: ValidJobDefinition): JobDefinitionColumns {
  return {
    name: definition.name,
    url: definition.url,
    method: definition.method,
    headers: definition.headers,
    body: definition.body,
    cronExpression: definition.cron_expression,
    timeZone: definition.time_zone,
    notifyOnFailure: definition.notify_on_failure,
  };
}

/** The next cron instant after `after` in the job's zone; null for an expression that never fires again (only possible for rows written outside the API). */
export function nextRunOrNull(expression: string, after: Date, timeZone: string): Date | null {
  try {
    return nextRun(expression, after, timeZone);
  } catch {
    return null;
  }
}
