import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { z } from 'zod';
import { jobDefinitionSchema } from '@shared/jobs/job-rules';
import type { JobLogEntry } from '@shared/jobs/job-types';
import { ApiError } from '../../common/http/api-error';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { ApiKeyGuard } from '../api-keys/api-key.guard';
import { type AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { RunNowService, type TestRunOutcome } from './run-now.service';
import { TestRunLimiter } from './test-run-limiter';

/** A test request is a job definition that need not be named or scheduled yet. */
const testRunSchema = jobDefinitionSchema.partial({ name: true, cron_expression: true, notify_on_failure: true });
type TestRunDefinition = z.infer<typeof testRunSchema>;

@Controller('api/jobs')
@UseGuards(BearerAuthGuard)
export class RunNowController {
  constructor(
    private readonly runs: RunNowService,
    private readonly limiter: TestRunLimiter,
  ) {}

  /** Executes an unsaved definition once and answers the outcome; nothing is stored. */
  @Post('test')
  @HttpCode(200)
  async test(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(testRunSchema)) body: TestRunDefinition,
  ): Promise<TestRunOutcome> {
    const wait = this.limiter.take(user.id);
    if (wait > 0) throw ApiError.tooManyRequests('Too many test requests. Please try again later.', wait);
    return this.runs.testRun({ url: body.url, method: body.method, headers: body.headers, body: body.body }, randomUUID());
  }

  /** Executes a saved job now: logged as a manual run and counted in the quota. */
  @Post(':id/run')
  @HttpCode(200)
  run(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<JobLogEntry> {
    return this.runs.runNow(user.id, id);
  }
}

@Controller('prog/jobs')
@UseGuards(ApiKeyGuard)
export class ProgRunNowController {
  constructor(private readonly runs: RunNowService) {}

  @Post(':job_id/run')
  @HttpCode(200)
  run(@CurrentUser() user: AuthenticatedUser, @Param('job_id') id: string): Promise<JobLogEntry> {
    return this.runs.runNow(user.id, id);
  }
}
