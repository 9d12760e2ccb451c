import type { Job } from '@cronbeam/shared/jobs/job-types';
import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';

/**
 * A saved job as the API answers it, every field at its default (a daily cron,
 * no policies changed); a test names only the fields it is about. One place,
 * so a field added to jobs is added to every component test's job once.
 */
export function savedJob(fields: Partial<Job> = {}): Job {
  return {
    job_id: '7d1f1e4e-3a55-4c3e-9b0f-2a0e6c1d9e11',
    name: 'nightly-backup',
    url: 'https://example.com/backup',
    method: 'GET',
    headers: {},
    body: '',
    cron_expression: '0 2 * * *',
    time_zone: 'UTC',
    every_seconds: null,
    run_at: null,
    starts_at: null,
    ends_at: null,
    jitter_seconds: 0,
    overlap: 'allow',
    catch_up: 'latest',
    catch_up_window_seconds: null,
    response_rules: null,
    timeout_seconds: null,
    auto_pause_after: null,
    alert_after_failures: 1,
    certificate_alert_days: 14,
    certificate_expires_at: null,
    delivery: 'at_least_once',
    tags: [],
    retry: DEFAULT_RETRY_POLICY,
    identity_token: null,
    callback_url: null,
    status: 'scheduled',
    notify_on_failure: true,
    next_run_at: null,
    last_run_at: null,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...fields,
  };
}
