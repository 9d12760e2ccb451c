import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { jobDefinitionSchema, jobLogsQuerySchema, type ValidJobDefinition } from '@shared/jobs/job-rules';
import type { Job, JobLogsResponse } from '@shared/jobs/job-types';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { type AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { JobLogsService } from './job-logs.service';
import { toJob } from './job-view';
import { JobsService } from './jobs.service';

/** The dashboard's job API (bearer token). The /prog surface offers the same operations with an API key. */
@Controller('api/jobs')
@UseGuards(BearerAuthGuard)
export class JobsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly jobLogs: JobLogsService,
  ) {}

  @Post()
  @HttpCode(200)
  async create(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(jobDefinitionSchema)) body: ValidJobDefinition): Promise<Job> {
    return toJob(await this.jobs.create(user.id, body));
  }

  @Get()
  async list(@CurrentUser() user: AuthenticatedUser): Promise<Job[]> {
    return (await this.jobs.list(user.id)).map(toJob);
  }

  @Get(':id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<Job> {
    return toJob(await this.jobs.get(user.id, id));
  }

  @Put(':id')
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body(new ZodPipe(jobDefinitionSchema)) body: ValidJobDefinition,
  ): Promise<Job> {
    return toJob(await this.jobs.update(user.id, id, body));
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ message: string }> {
    await this.jobs.remove(user.id, id);
    return { message: 'Job deleted' };
  }

  @Post(':id/pause')
  @HttpCode(200)
  async pause(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<Job> {
    return toJob(await this.jobs.pause(user.id, id));
  }

  @Post(':id/resume')
  @HttpCode(200)
  async resume(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<Job> {
    return toJob(await this.jobs.resume(user.id, id));
  }

  @Get(':id/logs')
  async logs(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Query(new ZodPipe(jobLogsQuerySchema, 'query')) query: { limit: number },
  ): Promise<JobLogsResponse> {
    return { logs: await this.jobLogs.latest(user.id, id, query.limit) };
  }
}
