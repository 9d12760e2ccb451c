import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DatabaseRateLimiter } from '../../common/rate-limit/database-rate-limiter';
import { HttpExecutor, type ExecutionRequest } from '../executor/http-executor.service';
import { TargetPolicy } from '../executor/target-policy.service';
import { assertTimeoutWithin } from './job-timeout';

/** Test requests per account per window: enough for editing a form, too few to use Cronbeam as a free HTTP relay. */
export const TEST_RUNS_PER_WINDOW = 10;
export const TEST_RUN_WINDOW_SECONDS = 60;

/** What "Test request" shows: the outcome of one unsaved request. */
export interface TestRunOutcome {
  status: 'success' | 'failed';
  response_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error_message: string | null;
}

/** The job form's "Test request": one unsaved definition sent once, under the same target policy and time limit as a saved job's runs. */
@Injectable()
export class JobTestRunService {
  constructor(
    private readonly executor: HttpExecutor,
    private readonly targets: TargetPolicy,
    private readonly testRuns: DatabaseRateLimiter,
  ) {}

  /** Executes an unsaved definition once and answers the outcome; nothing is stored. Rate-limited per account (429). */
  async testRun(accountId: string, request: Omit<ExecutionRequest, 'executionId'>): Promise<TestRunOutcome> {
    assertTimeoutWithin(request.timeoutMs ? request.timeoutMs / 1000 : null, this.executor.maxTimeoutMs);
    this.targets.assertAllowed(request.url);
    // Counted in the database: each test sends a request on the account's behalf, so the limit holds across instances.
    await this.testRuns.take([
      { key: `test-run:user:${accountId}`, limit: TEST_RUNS_PER_WINDOW, windowSeconds: TEST_RUN_WINDOW_SECONDS, message: 'Too many test requests. Please try again later.' },
    ]);
    const result = await this.executor.execute(this.executor.prepare({ ...request, accountId, executionId: randomUUID() }));
    return {
      status: result.success ? 'success' : 'failed',
      response_code: result.responseCode,
      duration_ms: result.durationMs,
      response_body: result.responseBody,
      error_message: result.errorMessage,
    };
  }
}
