import type { Job, JobLogEntry } from '@shared/jobs/job-types';
import type { JobRunEntity } from '../scheduler/job-run.entity';
import type { JobEntity } from './job.entity';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A job as both APIs answer it. */
export function toJob(job: JobEntity): Job {
  return {
    job_id: job.id,
    name: job.name,
    url: job.url,
    method: job.method,
    headers: job.headers,
    body: job.body,
    cron_expression: job.cronExpression,
    status: job.status,
    notify_on_failure: job.notifyOnFailure,
    next_run_at: iso(job.nextRunAt),
    last_run_at: iso(job.lastRunAt),
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
  };
}

/** A finished run as one line of a job's log. */
export function toLogEntry(run: JobRunEntity): JobLogEntry {
  return {
    run_id: run.id,
    executed_at: iso(run.executedAt),
    scheduled_for: run.scheduledFor.toISOString(),
    attempt: run.attempt,
    trigger: run.trigger,
    // A finished run always has an outcome; an unexpected null is shown as a failure, never as success.
    status: run.status ?? 'failed',
    response_code: run.responseCode,
    duration_ms: run.durationMs,
    error_message: run.errorMessage,
    response_body: run.responseBody,
  };
}
