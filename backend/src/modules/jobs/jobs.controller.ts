import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import type { z } from 'zod';
import { jobDefinitionFields, jobDefinitionSchema, jobLogsQuerySchema, schedulePreviewSchema, type ValidJobDefinition } from '@cronbeam/shared/jobs/job-rules';
import type { Job, JobLogEntry, JobLogsResponse, SchedulePreview } from '@cronbeam/shared/jobs/job-types';
import { signingSecretRotationSchema, type SigningSecretRotation } from '@cronbeam/shared/jobs/request-signing';
import { jobCloneRequestSchema, jobImportRequestSchema, type JobExport, type JobImportRequest, type JobImportResult } from '@cronbeam/shared/jobs/job-transfer';
import { bulkTagActionSchema, tagFilterQuerySchema, type BulkTagActionRequest, type JobBulkTagResult, type TagFilterQuery } from '@cronbeam/shared/tags/tags';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AuditActor, NotAudited, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { jobBulkRequestSchema, type JobBulkRequest, type JobBulkResult } from './job-bulk';
import { JobRunsService } from './job-runs.service';
import { JobTargetCheck, targetCheckSchema, type TargetCheck } from './job-target-check';
import { JobTestRunService, type TestRunOutcome } from './job-test-run.service';
import { JobTransferService } from './job-transfer.service';
import { JobsService, type SchedulePreviewDefinition } from './jobs.service';
import { MinimumRole } from '../auth/account-role.guard';

/** A test request is a job definition that need not be named or scheduled yet. */
const testRunSchema = jobDefinitionFields.partial({ name: true, cron_expression: true, notify_on_failure: true });
type TestRunDefinition = z.infer<typeof testRunSchema>;

/** The dashboard's job API (bearer token). The /prog surface offers the same operations with an API key, through the same services. */
@Controller('api/jobs')
@UseGuards(BearerAuthGuard)
export class JobsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly transfers: JobTransferService,
    private readonly testRuns: JobTestRunService,
    private readonly runs: JobRunsService,
    private readonly targets: JobTargetCheck,
  ) {}

  @Post()
  @HttpCode(200)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(jobDefinitionSchema)) body: ValidJobDefinition): Promise<Job> {
    return this.jobs.create(actor, user.accountId, body);
  }

  /** Creates up to 1,000 jobs at once, all or none (docs/adr/0111-bulk-job-creation.md). */
  @Post('bulk')
  @HttpCode(200)
  async createMany(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(jobBulkRequestSchema)) body: JobBulkRequest): Promise<JobBulkResult> {
    const jobs = await this.jobs.createMany(actor, user.accountId, body.jobs);
    return { created: jobs.length, jobs };
  }

  /** Executes an unsaved definition once and answers the outcome; nothing is stored. */
  @Post('test')
  @HttpCode(200)
  @NotAudited('a test request stores nothing')
  test(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(testRunSchema)) body: TestRunDefinition): Promise<TestRunOutcome> {
    return this.testRuns.testRun(user.accountId, {
      url: body.url,
      method: body.method,
      headers: body.headers,
      body: body.body,
      responseRules: body.response_rules,
      timeoutMs: body.timeout_seconds ? body.timeout_seconds * 1000 : null,
    });
  }

  /** The next runs (jitter included) and the executions in 30 days of a schedule, before it is saved. */
  @Post('schedule-preview')
  @MinimumRole('viewer')
  @HttpCode(200)
  @NotAudited('a preview stores nothing')
  previewSchedule(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(schedulePreviewSchema)) body: SchedulePreviewDefinition): Promise<SchedulePreview> {
    return this.jobs.preview(user.accountId, body);
  }

  /** Whether runs of a job to this URL would be sent: the job form warns before saving one that would only fail. */
  @Post('target-check')
  @MinimumRole('viewer')
  @HttpCode(200)
  @NotAudited('a check stores nothing')
  checkTarget(@Body(new ZodPipe(targetCheckSchema)) body: { url: string }): TargetCheck {
    return this.targets.check(body.url);
  }

  @Get()
  list(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(tagFilterQuerySchema, 'query')) query: TagFilterQuery): Promise<Job[]> {
    return this.jobs.list(user.accountId, 'replica', query.tag ?? null);
  }

  /** Pauses, resumes or deletes every job carrying a tag; answers exactly those jobs. */
  @Post('bulk-action')
  @HttpCode(200)
  bulkAction(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(bulkTagActionSchema)) body: BulkTagActionRequest): Promise<JobBulkTagResult<Job>> {
    return this.jobs.bulkAction(actor, user.accountId, body);
  }

  /** Every job's definition as one JSON document, for import elsewhere. */
  @Get('export')
  exportAll(@CurrentUser() user: AuthenticatedUser): Promise<JobExport> {
    return this.transfers.exportAll(user.accountId);
  }

  /** Creates jobs from an export or a crontab; with dry_run, only the preview of what would be created and refused. */
  @Post('import')
  @HttpCode(200)
  @NotAudited('a dry run, or an import that refused every job, stores nothing', { whenBodyFlag: 'dry_run', whenAnswerZero: 'created' })
  importJobs(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(jobImportRequestSchema)) body: JobImportRequest): Promise<JobImportResult> {
    return this.transfers.importJobs(actor, user.accountId, body);
  }

  @Post(':id/clone')
  @HttpCode(200)
  clone(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string, @Body(new ZodPipe(jobCloneRequestSchema)) body: { name?: string }): Promise<Job> {
    return this.transfers.clone(actor, user.accountId, id, body.name);
  }

  @Get(':id')
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<Job> {
    return this.jobs.get(user.accountId, id);
  }

  @Put(':id')
  update(
    @CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor,
    @Param('id') id: string,
    @Body(new ZodPipe(jobDefinitionSchema)) body: ValidJobDefinition,
  ): Promise<Job> {
    return this.jobs.update(actor, user.accountId, id, body);
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<{ message: string }> {
    await this.jobs.remove(actor, user.accountId, id);
    return { message: 'Job deleted' };
  }

  /** A new secret for the job's request signature, shown this once; the old one keeps signing for overlap_seconds. */
  @Post(':id/signing-secret')
  @HttpCode(200)
  rotateSigningSecret(
    @CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor,
    @Param('id') id: string,
    @Body(new ZodPipe(signingSecretRotationSchema)) body: z.output<typeof signingSecretRotationSchema>,
  ): Promise<SigningSecretRotation> {
    return this.jobs.rotateSigningSecret(actor, user.accountId, id, body.overlap_seconds);
  }

  @Post(':id/pause')
  @HttpCode(200)
  pause(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<Job> {
    return this.jobs.pause(actor, user.accountId, id);
  }

  @Post(':id/resume')
  @HttpCode(200)
  resume(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<Job> {
    return this.jobs.resume(actor, user.accountId, id);
  }

  /** Executes a saved job now: logged as a manual run and counted in the quota. */
  @Post(':id/run')
  @HttpCode(200)
  run(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<JobLogEntry> {
    return this.runs.runNow(actor, user.accountId, id);
  }

  @Get(':id/logs')
  async logs(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Query(new ZodPipe(jobLogsQuerySchema, 'query')) query: { limit: number },
  ): Promise<JobLogsResponse> {
    return { logs: await this.runs.logs(user.accountId, id, query.limit) };
  }
}
