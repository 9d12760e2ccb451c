import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { JobLogEntry } from '@shared/jobs/job-types';
import { ApiError } from '../../common/http/api-error';
import { toClaimedRun, type ClaimedRun, type ClaimedRunRow } from './claimed-run';
import { HttpExecutor, type ExecutionRequest, type ExecutionResult } from './executor/http-executor';
import { RunRecorder } from './run-recorder';
import { SchedulerInstance } from './scheduler-instance';
import { SchedulerSettings } from './scheduler-settings';
import { monthlyExecutionLimit, reserveExecutions, usagePeriodStart } from './usage-quota';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What "Test request" shows: the outcome of one unsaved request. */
export interface TestRunOutcome {
  status: 'success' | 'failed';
  response_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error_message: string | null;
}

/**
 * Executions a user asks for: "run now" on a saved job (logged as a manual
 * run, counted in the quota, never retried: the user sees the outcome) and
 * the job form's test request (nothing stored).
 */
@Injectable()
export class RunNowService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly executor: HttpExecutor,
    private readonly recorder: RunRecorder,
    private readonly settings: SchedulerSettings,
    private readonly instance: SchedulerInstance,
  ) {}

  async runNow(userId: string, jobId: string): Promise<JobLogEntry> {
    if (!UUID.test(jobId)) throw ApiError.notFound('Job not found');
    const now = new Date();
    const run = await this.db.transaction(async (em): Promise<ClaimedRun> => {
      const [job]: Array<{ plan: string }> = await em.query(
        `SELECT u.plan FROM jobs j JOIN users u ON u.id = j.user_id WHERE j.id = $1 AND j.user_id = $2 FOR UPDATE OF j`,
        [jobId, userId],
      );
      if (!job) throw ApiError.notFound('Job not found');
      const period = usagePeriodStart(now);
      const granted = await reserveExecutions(em, [{ userId, plan: job.plan, period, wanted: 1 }]);
      if ((granted.values().next().value ?? 0) < 1) {
        throw ApiError.forbidden({ error: 'Execution quota exceeded', plan: job.plan, execution_quota: monthlyExecutionLimit(job.plan) });
      }
      const [row]: ClaimedRunRow[] = await em.query(
        `WITH run AS (
           INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, due_at, state, lease_owner, lease_expires_at)
           VALUES ($1, $2, 'manual', $3, $3, 'running', $4, $5)
           RETURNING *
         )
         SELECT r.id AS run_id, r.job_id, r.user_id, r.trigger, r.scheduled_for, r.attempt, r.due_at,
           j.notify_on_failure, j.url, j.method, j.headers, j.body
         FROM run r JOIN jobs j ON j.id = r.job_id`,
        [jobId, userId, now, this.instance.id, this.settings.leaseExpiry(now, now.getTime())],
      );
      return toClaimedRun(row);
    });
    const result = await this.executor.execute(this.executor.prepare({ executionId: run.runId, ...run }));
    await this.recorder.record(run, result, true);
    return toLogEntry(run, result);
  }

  async testRun(request: Omit<ExecutionRequest, 'executionId'>, executionId: string): Promise<TestRunOutcome> {
    const result = await this.executor.execute(this.executor.prepare({ ...request, executionId }));
    return {
      status: result.success ? 'success' : 'failed',
      response_code: result.responseCode,
      duration_ms: result.durationMs,
      response_body: result.responseBody,
      error_message: result.errorMessage,
    };
  }
}

function toLogEntry(run: ClaimedRun, result: ExecutionResult): JobLogEntry {
  return {
    run_id: run.runId,
    executed_at: result.startedAt.toISOString(),
    scheduled_for: run.scheduledFor.toISOString(),
    attempt: run.attempt,
    trigger: run.trigger,
    status: result.success ? 'success' : 'failed',
    response_code: result.responseCode,
    duration_ms: result.durationMs,
    error_message: result.errorMessage,
    response_body: result.responseBody,
  };
}
