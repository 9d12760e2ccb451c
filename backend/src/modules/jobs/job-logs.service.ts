import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { JobLogEntry } from '@shared/jobs/job-types';
import { JobRunEntity } from '../scheduler/job-run.entity';
import { JobsService } from './jobs.service';
import { toLogEntry } from './job-view';

/** Reads a job's execution log: the finished runs the scheduler recorded. */
@Injectable()
export class JobLogsService {
  constructor(
    @InjectRepository(JobRunEntity) private readonly runs: Repository<JobRunEntity>,
    private readonly jobs: JobsService,
  ) {}

  /** Newest first; 404 when the job is not the caller's. */
  async latest(userId: string, jobId: string, limit: number): Promise<JobLogEntry[]> {
    const job = await this.jobs.get(userId, jobId);
    const runs = await this.runs
      .createQueryBuilder('r')
      .where('r.job_id = :jobId AND r.user_id = :userId AND r.state = :state', { jobId: job.id, userId, state: 'done' })
      // Skipped and missed runs never executed: they sort by the instant they were due.
      .orderBy('COALESCE(r.executed_at, r.scheduled_for)', 'DESC')
      .addOrderBy('r.created_at', 'DESC')
      .limit(limit)
      .getMany();
    return runs.map(toLogEntry);
  }
}
