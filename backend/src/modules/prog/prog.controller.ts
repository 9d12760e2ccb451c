import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { JOB_LOGS_LIMITS, jobDefinitionSchema, schedulePreviewSchema, type ValidJobDefinition } from '@cronbeam/shared/jobs/job-rules';
import type { Job, JobLogEntry, JobLogsResponse, SchedulePreview } from '@cronbeam/shared/jobs/job-types';
import type { CallbackDelivery } from '@cronbeam/shared/jobs/run-callbacks';
import { SIGNING_LIMITS, signingSecretRotationSchema, type SigningSecretRotation } from '@cronbeam/shared/jobs/request-signing';
import { jobCloneRequestSchema, jobImportRequestSchema, type JobExport, type JobImportRequest, type JobImportResult } from '@cronbeam/shared/jobs/job-transfer';
import { BULK_TAG_ACTIONS, bulkTagActionSchema, tagFilterQuerySchema, type BulkTagActionRequest, type JobBulkTagResult, type TagFilterQuery } from '@cronbeam/shared/tags/tags';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AlertChannelsService } from '../alert-channels/alert-channels.service';
import { ApiKeyGuard } from '../api-keys/api-key.guard';
import { AuditActor, NotAudited, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { JOB_BULK_MAX, jobBulkRequestSchema, type JobBulkRequest, type JobBulkResult } from '../jobs';
import { JobRunsService } from '../jobs/job-runs.service';
import { JobTransferService } from '../jobs/job-transfer.service';
import { JobsService, type SchedulePreviewDefinition } from '../jobs/jobs.service';
import { JobDefinitionBody, JobIdParam, JobLimitResponse, JsonResponse, ProgOperation, schemaRef } from './prog-docs.decorators';
import { CALLBACK_DELIVERIES_EXAMPLE, CALLBACK_DELIVERIES_SCHEMA } from './prog-callback-docs';
import { BULK_TAG_ACTION_EXAMPLE, BULK_TAG_RESULT_EXAMPLE, BULK_TAG_RESULT_SCHEMA, BULK_EXAMPLE, BULK_REQUEST_SCHEMA, BULK_RESULT_EXAMPLE, BULK_RESULT_SCHEMA, BULK_VALIDATION_EXAMPLE, CLONE_EXAMPLE, SCHEDULE_PREVIEW_EXAMPLE, SCHEDULE_PREVIEW_REQUEST_EXAMPLE, EXPORT_EXAMPLE, IMPORT_EXAMPLE, IMPORT_RESULT_EXAMPLE, JOB_EXAMPLE, JOB_LOGS_EXAMPLE, PAUSED_JOB_EXAMPLE, RESUMED_JOB_EXAMPLE, VALIDATION_EXAMPLE } from './prog-examples';
import { MinimumRole } from '../auth/account-role.guard';

/**
 * The public programmatic API (/prog), authenticated by API key. Same jobs,
 * same rules and same services as the dashboard API.
 */
@ApiTags('jobs')
@Controller('prog')
export class ProgController {
  constructor(
    private readonly jobs: JobsService,
    private readonly transfers: JobTransferService,
    private readonly runs: JobRunsService,
    private readonly channels: AlertChannelsService,
  ) {}

  @Post('jobs')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Create a job', 'Starts as pending with next_run_at set to the next cron instant in the job’s time_zone.')
  @JobDefinitionBody()
  @JsonResponse(200, 'The created job', schemaRef('Job'), JOB_EXAMPLE)
  @JobLimitResponse()
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(jobDefinitionSchema)) body: ValidJobDefinition): Promise<Job> {
    return this.jobs.create(actor, user.accountId, body);
  }

  @Post('jobs/bulk')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @ProgOperation(
    'Create many jobs at once',
    `Up to ${JOB_BULK_MAX} definitions in one request, created all or none: any invalid item (its index is in the error's loc, e.g. ["body", "jobs", 3, "url"]), ` +
      "a name already taken, or the plan's job limit refuses the whole request. The created jobs come back in the order sent.",
  )
  @ApiBody({ schema: BULK_REQUEST_SCHEMA, examples: { two: { summary: 'Two jobs', value: BULK_EXAMPLE } } })
  @JsonResponse(200, 'The created jobs, in the order sent', BULK_RESULT_SCHEMA, BULK_RESULT_EXAMPLE)
  @JsonResponse(422, 'An item is invalid (its index is in loc), or more than the maximum were sent', schemaRef('ValidationError'), BULK_VALIDATION_EXAMPLE)
  @JobLimitResponse()
  async createMany(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(jobBulkRequestSchema)) body: JobBulkRequest): Promise<JobBulkResult> {
    const jobs = await this.jobs.createMany(actor, user.accountId, body.jobs);
    return { created: jobs.length, jobs };
  }

  @Post('jobs/schedule-preview')
  @MinimumRole('viewer')
  @HttpCode(200)
  @NotAudited('a preview stores nothing')
  @UseGuards(ApiKeyGuard)
  @ProgOperation(
    'Preview a schedule',
    'The next runs of a schedule (jitter included) and how many executions it uses in 30 days, before the job is saved. Takes the schedule fields of a job definition; a schedule the plan does not allow is refused as creating the job would be.',
  )
  @ApiBody({ schema: schemaRef('SchedulePreviewRequest'), examples: { interval: { summary: 'Every 30 seconds with up to 10 s of jitter', value: SCHEDULE_PREVIEW_REQUEST_EXAMPLE } } })
  @JsonResponse(200, 'The next runs and the executions in 30 days', schemaRef('SchedulePreview'), SCHEDULE_PREVIEW_EXAMPLE)
  previewSchedule(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(schedulePreviewSchema)) body: SchedulePreviewDefinition): Promise<SchedulePreview> {
    return this.jobs.preview(user.accountId, body);
  }

  @Get('jobs')
  @UseGuards(ApiKeyGuard)
  @ProgOperation('List your jobs', 'Oldest first; with ?tag=, only the jobs carrying that tag.')
  @JsonResponse(200, 'The jobs of the key owner', { type: 'array', items: schemaRef('Job') }, [JOB_EXAMPLE])
  list(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(tagFilterQuerySchema, 'query')) query: TagFilterQuery): Promise<Job[]> {
    return this.jobs.list(user.accountId, 'replica', query.tag ?? null);
  }

  @Post('jobs/bulk-action')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @ProgOperation(
    'Pause, resume or delete every job with a tag',
    'Acts on the jobs of the key owner that carry the tag and answers exactly those: as they are after a pause or resume, as they were before a delete. ' +
      'Resume puts paused jobs back on their schedule; a job held by the quota stays held.',
  )
  @ApiBody({ schema: { type: 'object', required: ['action', 'tag'], properties: { action: { type: 'string', enum: [...BULK_TAG_ACTIONS] }, tag: { type: 'string' } } }, examples: { pause: { summary: 'Pause every backup job', value: BULK_TAG_ACTION_EXAMPLE } } })
  @JsonResponse(200, 'The jobs that carry the tag', BULK_TAG_RESULT_SCHEMA, BULK_TAG_RESULT_EXAMPLE)
  bulkAction(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(bulkTagActionSchema)) body: BulkTagActionRequest): Promise<JobBulkTagResult<Job>> {
    return this.jobs.bulkAction(actor, user.accountId, body);
  }

  @Get('jobs/export')
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Export all jobs', 'Every job definition, oldest first, in the format POST /prog/jobs/import takes back.')
  @JsonResponse(200, 'The export', schemaRef('JobExport'), EXPORT_EXAMPLE)
  exportAll(@CurrentUser() user: AuthenticatedUser): Promise<JobExport> {
    return this.transfers.exportAll(user.accountId);
  }

  @Post('jobs/import')
  @HttpCode(200)
  @NotAudited('a dry run, or an import that refused every job, stores nothing', { whenBodyFlag: 'dry_run', whenAnswerZero: 'created' })
  @UseGuards(ApiKeyGuard)
  @ProgOperation(
    'Import jobs from an export or a crontab',
    "Each entry is checked like a creation (rules, target policy, unique name, the plan's job limit) and created or refused with its reason. dry_run answers the preview only.",
  )
  @ApiBody({ schema: schemaRef('JobImportRequest'), examples: { crontab: { summary: 'Two crontab lines', value: IMPORT_EXAMPLE } } })
  @JsonResponse(200, 'What was (or would be) created and refused', schemaRef('JobImportResult'), IMPORT_RESULT_EXAMPLE)
  @JsonResponse(422, 'The request or the file is not readable', schemaRef('ValidationError'), VALIDATION_EXAMPLE)
  importJobs(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(jobImportRequestSchema)) body: JobImportRequest): Promise<JobImportResult> {
    return this.transfers.importJobs(actor, user.accountId, body);
  }

  @Post('jobs/:job_id/clone')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Clone a job', 'A new job with the same definition, named as given or "<name>-copy"; counts toward the job limit.')
  @JobIdParam()
  @ApiBody({ required: false, schema: { type: 'object', properties: { name: { type: 'string' } } }, examples: { named: { summary: 'Name the copy', value: CLONE_EXAMPLE } } })
  @JsonResponse(200, 'The new job', schemaRef('Job'), JOB_EXAMPLE)
  @JobLimitResponse()
  clone(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('job_id') jobId: string, @Body(new ZodPipe(jobCloneRequestSchema)) body: { name?: string }): Promise<Job> {
    return this.transfers.clone(actor, user.accountId, jobId, body.name);
  }

  @Get('jobs/:job_id')
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Get a job')
  @JobIdParam()
  @JsonResponse(200, 'The job', schemaRef('Job'), JOB_EXAMPLE)
  get(@CurrentUser() user: AuthenticatedUser, @Param('job_id') jobId: string): Promise<Job> {
    return this.jobs.get(user.accountId, jobId);
  }

  @Put('jobs/:job_id')
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Replace a job definition', 'Send the full definition; omitted optional fields return to their defaults. next_run_at is recomputed unless the job is paused.')
  @JobIdParam()
  @JobDefinitionBody()
  @JsonResponse(200, 'The updated job', schemaRef('Job'), JOB_EXAMPLE)
  update(
    @CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor,
    @Param('job_id') jobId: string,
    @Body(new ZodPipe(jobDefinitionSchema)) body: ValidJobDefinition,
  ): Promise<Job> {
    return this.jobs.update(actor, user.accountId, jobId, body);
  }

  @Delete('jobs/:job_id')
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Delete a job and its logs', 'Permanent.')
  @JobIdParam()
  @JsonResponse(200, 'Deleted', { type: 'object', properties: { message: { type: 'string' } } }, { message: 'Job deleted' })
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('job_id') jobId: string): Promise<{ message: string }> {
    await this.jobs.remove(actor, user.accountId, jobId);
    return { message: 'Job deleted' };
  }

  @Post('jobs/:job_id/signing-secret')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @ProgOperation(
    'Replace the signing secret of a job',
    'Answers a new secret for the X-Cronbeam-Signature header, shown this once. The secret it replaces keeps signing for overlap_seconds ' +
      `(default ${SIGNING_LIMITS.defaultOverlapSeconds}, at most ${SIGNING_LIMITS.maxOverlapSeconds}): requests carry both signatures meanwhile. ` +
      'A job created before signed requests has no secret until this is called.',
  )
  @JobIdParam()
  @ApiBody({
    required: false,
    schema: { type: 'object', additionalProperties: false, properties: { overlap_seconds: { type: 'integer', minimum: 0, maximum: SIGNING_LIMITS.maxOverlapSeconds, default: SIGNING_LIMITS.defaultOverlapSeconds } } },
    examples: { hour: { summary: 'The old secret signs for one more hour', value: { overlap_seconds: 3600 } }, now: { summary: 'The old secret stops at once', value: { overlap_seconds: 0 } } },
  })
  @JsonResponse(
    200,
    'The new secret, and until when the previous one still signs (null: no previous secret, or no overlap)',
    { type: 'object', required: ['signing_secret', 'previous_valid_until'], properties: { signing_secret: { type: 'string' }, previous_valid_until: { type: 'string', format: 'date-time', nullable: true } } },
    { signing_secret: 'cbsig_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', previous_valid_until: '2026-01-03T10:15:00.000Z' },
  )
  rotateSigningSecret(
    @CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor,
    @Param('job_id') jobId: string,
    @Body(new ZodPipe(signingSecretRotationSchema)) body: { overlap_seconds: number },
  ): Promise<SigningSecretRotation> {
    return this.jobs.rotateSigningSecret(actor, user.accountId, jobId, body.overlap_seconds);
  }

  @Post('jobs/:job_id/pause')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Pause a job', 'Keeps the configuration; next_run_at becomes null.')
  @JobIdParam()
  @JsonResponse(200, 'The paused job', schemaRef('Job'), PAUSED_JOB_EXAMPLE)
  pause(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('job_id') jobId: string): Promise<Job> {
    return this.jobs.pause(actor, user.accountId, jobId);
  }

  @Post('jobs/:job_id/resume')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Resume a job', 'Status becomes scheduled; next_run_at is the next cron instant from now.')
  @JobIdParam()
  @JsonResponse(200, 'The resumed job', schemaRef('Job'), RESUMED_JOB_EXAMPLE)
  resume(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('job_id') jobId: string): Promise<Job> {
    return this.jobs.resume(actor, user.accountId, jobId);
  }

  @Get('jobs/:job_id/logs')
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Latest executions of a job', `The last ${JOB_LOGS_LIMITS.default} finished runs, newest first.`)
  @JobIdParam()
  @JsonResponse(200, 'Execution log', schemaRef('JobLogsResponse'), JOB_LOGS_EXAMPLE)
  async logs(@CurrentUser() user: AuthenticatedUser, @Param('job_id') jobId: string): Promise<JobLogsResponse> {
    return { logs: await this.runs.logs(user.accountId, jobId, JOB_LOGS_LIMITS.default) };
  }

  @Get('jobs/:job_id/callback-deliveries')
  @UseGuards(ApiKeyGuard)
  @ProgOperation(
    'Latest deliveries of a job\'s run callbacks',
    'Every attempt to POST a completed run\'s outcome to the job\'s callback_url, newest first (up to 50): a run gives one callback, tried up to 3 times.',
  )
  @JobIdParam()
  @JsonResponse(200, 'Callback delivery log', CALLBACK_DELIVERIES_SCHEMA, CALLBACK_DELIVERIES_EXAMPLE)
  async callbackDeliveries(@CurrentUser() user: AuthenticatedUser, @Param('job_id') jobId: string): Promise<{ deliveries: CallbackDelivery[] }> {
    return { deliveries: await this.channels.callbackDeliveries(user.accountId, jobId) };
  }

  @Post('jobs/:job_id/run')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @ProgOperation('Run a job now', 'Executes the saved job once, outside its schedule; logged as a manual run and counted in the monthly quota.')
  @JobIdParam()
  @JsonResponse(200, 'The run', schemaRef('JobLogEntry'), JOB_LOGS_EXAMPLE.logs[0])
  run(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('job_id') jobId: string): Promise<JobLogEntry> {
    return this.runs.runNow(actor, user.accountId, jobId);
  }
}
