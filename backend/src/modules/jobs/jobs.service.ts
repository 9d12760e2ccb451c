import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { nextRun } from '@shared/cron/cron-schedule';
import { JOB_MESSAGES, type ValidJobDefinition } from '@shared/jobs/job-rules';
import type { JobLimitExceeded, JobStatus } from '@shared/jobs/job-types';
import { PLAN_LIMITS } from '@shared/plans';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { UsersService } from '../auth/users.service';
import { JobEvents, type JobChangeKind } from './job-events';
import { JobTargetPolicy } from './job-target-policy';
import { JobEntity } from './job.entity';
import { isUniqueViolation } from './unique-violation';

const NAME_INDEX = 'jobs_user_name_key';

/**
 * Job CRUD for one user at a time: every query is scoped by user id, and a
 * job of someone else is indistinguishable from a missing one (404).
 * Schedule changes are announced on JobEvents after they commit.
 */
@Injectable()
export class JobsService {
  constructor(
    @InjectRepository(JobEntity) private readonly jobs: Repository<JobEntity>,
    private readonly users: UsersService,
    private readonly events: JobEvents,
    private readonly targets: JobTargetPolicy,
  ) {}

  /** Oldest first, so the dashboard's "first 5" are stable. */
  list(userId: string): Promise<JobEntity[]> {
    return this.jobs.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(userId: string, jobId: string): Promise<JobEntity> {
    const job = isUuid(jobId) ? await this.jobs.findOneBy({ id: jobId, userId }) : null;
    if (!job) throw ApiError.notFound('Job not found');
    return job;
  }

  async create(userId: string, definition: ValidJobDefinition): Promise<JobEntity> {
    this.targets.assertAllowed(definition.url);
    const plan = await this.users.getPlan(userId);
    const maxJobs = PLAN_LIMITS[plan].maxJobs;
    const job = await this.saveUniqueName(() =>
      this.jobs.manager.transaction(async (tx) => {
        // Serialises concurrent creates of one user, so two requests cannot both take the last slot.
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`jobs:${userId}`]);
        const jobCount = await tx.countBy(JobEntity, { userId });
        if (jobCount >= maxJobs) {
          const detail: JobLimitExceeded = { error: 'Job limit exceeded', plan, job_count: jobCount, max_jobs: maxJobs };
          throw ApiError.forbidden(detail);
        }
        return tx.save(tx.create(JobEntity, { userId, ...this.columns(definition), status: 'pending', nextRunAt: nextRun(definition.cron_expression) }));
      }),
    );
    this.announce(job, 'created');
    return job;
  }

  /** Replaces the definition; the next run is recomputed unless the job is paused. */
  async update(userId: string, jobId: string, definition: ValidJobDefinition): Promise<JobEntity> {
    this.targets.assertAllowed(definition.url);
    const job = await this.get(userId, jobId);
    // Only the definition's columns are written: the scheduler updates status and run times concurrently.
    await this.saveUniqueName(() =>
      this.jobs
        .createQueryBuilder()
        .update(JobEntity)
        .set({ ...this.columns(definition), nextRunAt: () => `CASE WHEN status = 'paused' THEN NULL ELSE :next::timestamptz END` })
        .setParameter('next', nextRun(definition.cron_expression))
        .where('id = :id AND user_id = :userId', { id: job.id, userId })
        .execute(),
    );
    const saved = await this.get(userId, jobId);
    this.announce(saved, 'updated');
    return saved;
  }

  async remove(userId: string, jobId: string): Promise<void> {
    const job = await this.get(userId, jobId);
    // job_runs reference jobs ON DELETE CASCADE: the job's logs go with it.
    await this.jobs.delete({ id: job.id, userId });
    this.announce({ ...job, nextRunAt: null }, 'deleted');
  }

  pause(userId: string, jobId: string): Promise<JobEntity> {
    return this.setSchedule(userId, jobId, 'paused', () => null, 'paused');
  }

  resume(userId: string, jobId: string): Promise<JobEntity> {
    return this.setSchedule(userId, jobId, 'scheduled', (job) => nextRun(job.cronExpression), 'resumed');
  }

  /** Jobs per status, for the dashboard's cards. */
  async countByStatus(userId: string): Promise<Partial<Record<JobStatus, number>>> {
    const rows: Array<{ status: JobStatus; count: string }> = await this.jobs
      .createQueryBuilder('j')
      .select('j.status', 'status')
      .addSelect('count(*)', 'count')
      .where('j.user_id = :userId', { userId })
      .groupBy('j.status')
      .getRawMany();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
  }

  private async setSchedule(
    userId: string,
    jobId: string,
    status: JobStatus,
    next: (job: JobEntity) => Date | null,
    kind: JobChangeKind,
  ): Promise<JobEntity> {
    const job = await this.get(userId, jobId);
    await this.jobs.update({ id: job.id, userId }, { status, nextRunAt: next(job) });
    const saved = await this.get(userId, jobId);
    this.announce(saved, kind);
    return saved;
  }

  private columns(definition: ValidJobDefinition): Partial<JobEntity> {
    return {
      name: definition.name,
      url: definition.url,
      method: definition.method,
      headers: definition.headers,
      body: definition.body,
      cronExpression: definition.cron_expression,
      notifyOnFailure: definition.notify_on_failure,
    };
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
