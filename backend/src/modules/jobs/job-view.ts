import type { Job } from '@cronbeam/shared/jobs/job-types';
import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';
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
    time_zone: job.timeZone,
    every_seconds: job.everySeconds,
    run_at: iso(job.runAt),
    starts_at: iso(job.startsAt),
    ends_at: iso(job.endsAt),
    jitter_seconds: job.jitterSeconds,
    overlap: job.overlap,
    catch_up: job.catchUp,
    catch_up_window_seconds: job.catchUpWindowSeconds,
    response_rules: job.responseRules,
    timeout_seconds: job.timeoutMs === null ? null : job.timeoutMs / 1000,
    auto_pause_after: job.autoPauseAfter,
    alert_after_failures: job.alertAfterFailures,
    certificate_alert_days: job.certificateAlertDays,
    delivery: job.delivery,
    tags: job.tags,
    retry: job.retryPolicy ?? DEFAULT_RETRY_POLICY,
    identity_token: job.identityToken,
    callback_url: job.callbackUrl,
    status: job.status,
    notify_on_failure: job.notifyOnFailure,
    certificate_expires_at: iso(job.certificateExpiresAt ?? null),
    next_run_at: iso(job.nextRunAt),
    last_run_at: iso(job.lastRunAt),
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
  };
}
