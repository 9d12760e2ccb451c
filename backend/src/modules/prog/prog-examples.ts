import { JOB_BULK_MAX } from '../jobs';
import type { Job, JobDefinition, JobLimitExceeded, JobLogsResponse, SchedulePreview, SchedulePreviewRequest } from '@cronbeam/shared/jobs/job-types';
import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';

/** Request and response examples of the /prog OpenAPI document (typed, so they follow the shared types). */
export const JOB_DEFINITION_EXAMPLE: JobDefinition = {
  name: 'nightly-backup',
  url: 'https://example.com/hooks/backup',
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: '{"full": true}',
  cron_expression: '0 2 * * *',
  notify_on_failure: true,
};

export const JOB_EXAMPLE: Job = {
  job_id: '8b7f7c1e-2f4c-4a8e-9f55-0f3b6d3f3a10',
  name: 'nightly-backup',
  url: 'https://example.com/hooks/backup',
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: '{"full": true}',
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
  delivery: 'at_least_once',
  tags: ['backups'],
  retry: DEFAULT_RETRY_POLICY,
  identity_token: null,
  callback_url: null,
  status: 'pending',
  notify_on_failure: true,
  certificate_expires_at: null,
  next_run_at: '2026-01-02T02:00:00.000Z',
  last_run_at: null,
  created_at: '2026-01-01T10:15:00.000Z',
  updated_at: '2026-01-01T10:15:00.000Z',
};

export const PAUSED_JOB_EXAMPLE: Job = { ...JOB_EXAMPLE, status: 'paused', next_run_at: null };
export const RESUMED_JOB_EXAMPLE: Job = { ...JOB_EXAMPLE, status: 'scheduled' };

export const JOB_LOGS_EXAMPLE: JobLogsResponse = {
  logs: [
    {
      run_id: '0c4f1f3e-7a43-4d0b-8a51-52a0b1f0c9d2',
      executed_at: '2026-01-02T02:00:00.004Z',
      scheduled_for: '2026-01-02T02:00:00.000Z',
      attempt: 1,
      trigger: 'schedule',
      status: 'success',
      response_code: 200,
      duration_ms: 182,
      error_message: null,
      response_body: '{"ok":true}',
      possible_duplicate: false,
      alert_note: null,
    },
  ],
};

export const JOB_LIMIT_EXAMPLE: { detail: JobLimitExceeded } = {
  detail: { error: 'Job limit exceeded', plan: 'free', job_count: 2, max_jobs: 2 },
};

export const VALIDATION_EXAMPLE = {
  detail: [
    { loc: ['body', 'name'], msg: 'Name can only contain letters, numbers, hyphens (-), and underscores (_)', type: 'invalid_format' },
    { loc: ['body', 'cron_expression'], msg: 'Cron expression must have 5 fields, or 6 with seconds first', type: 'custom' },
  ],
};

export const CLONE_EXAMPLE = { name: 'nightly-backup-eu' };

export const EXPORT_EXAMPLE = {
  format: 'cronbeam-jobs',
  version: 1,
  exported_at: '2026-01-01T10:15:00.000Z',
  jobs: [{ ...JOB_DEFINITION_EXAMPLE, time_zone: 'UTC', response_rules: null, timeout_seconds: null, auto_pause_after: null, alert_after_failures: 1, certificate_alert_days: 14, delivery: 'at_least_once', tags: ['backups'] }],
};

export const IMPORT_EXAMPLE = {
  format: 'crontab',
  content: 'CRON_TZ=Europe/Berlin\n0 2 * * * curl -fsS -X POST https://example.com/hooks/backup\n@reboot /usr/local/bin/warm-cache\n',
  dry_run: true,
};

export const IMPORT_RESULT_EXAMPLE = {
  dry_run: true,
  created: 1,
  refused: 1,
  items: [
    {
      source: 2,
      name: 'example-com-hooks-backup',
      action: 'create',
      reason: null,
      definition: {
        name: 'example-com-hooks-backup',
        url: 'https://example.com/hooks/backup',
        method: 'POST',
        headers: {},
        body: '',
        cron_expression: '0 2 * * *',
        time_zone: 'Europe/Berlin',
        response_rules: null,
        timeout_seconds: null,
        auto_pause_after: null,
        alert_after_failures: 1,
        delivery: 'at_least_once',
        tags: [],
        notify_on_failure: false,
      },
      job_id: null,
    },
    { source: 3, name: null, action: 'refuse', reason: '@reboot has no schedule', definition: null, job_id: null },
  ],
};

export const BULK_EXAMPLE = {
  jobs: [
    JOB_DEFINITION_EXAMPLE,
    { name: 'hourly-sync', url: 'https://example.com/hooks/sync', cron_expression: '0 * * * *' },
  ],
};

export const BULK_RESULT_EXAMPLE = {
  created: 2,
  jobs: [
    JOB_EXAMPLE,
    { ...JOB_EXAMPLE, job_id: '2c1d6f0a-7b3e-4f6d-8a2b-5e9c4d3b1a20', name: 'hourly-sync', url: 'https://example.com/hooks/sync', method: 'GET', headers: {}, body: '', cron_expression: '0 * * * *', notify_on_failure: false, next_run_at: '2026-01-01T11:00:00.000Z' },
  ],
};

export const BULK_VALIDATION_EXAMPLE = {
  detail: [{ loc: ['body', 'jobs', 1, 'cron_expression'], msg: 'Cron expression must have 5 fields, or 6 with seconds first', type: 'custom' }],
};

const schemaRefOf = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The bulk request and answer (documented inline: they are made of the shared JobDefinition and Job). */
export const BULK_REQUEST_SCHEMA = {
  type: 'object',
  required: ['jobs'],
  properties: { jobs: { type: 'array', minItems: 1, maxItems: JOB_BULK_MAX, items: schemaRefOf('JobDefinition') } },
};

export const BULK_RESULT_SCHEMA = {
  type: 'object',
  required: ['created', 'jobs'],
  properties: { created: { type: 'integer' }, jobs: { type: 'array', items: schemaRefOf('Job') } },
};

export const BULK_TAG_ACTION_EXAMPLE = { action: 'pause', tag: 'backups' };
export const BULK_TAG_RESULT_EXAMPLE = { action: 'pause', tag: 'backups', count: 1, jobs: [PAUSED_JOB_EXAMPLE] };

/** A bulk action's answer: every job that carried the tag. */
export const BULK_TAG_RESULT_SCHEMA = {
  type: 'object',
  required: ['action', 'tag', 'count', 'jobs'],
  properties: { action: { type: 'string' }, tag: { type: 'string' }, count: { type: 'integer' }, jobs: { type: 'array', items: schemaRefOf('Job') } },
};

export const SCHEDULE_PREVIEW_REQUEST_EXAMPLE: SchedulePreviewRequest = { name: 'cache-warmer', every_seconds: 30, jitter_seconds: 10, count: 3 };

export const SCHEDULE_PREVIEW_EXAMPLE: SchedulePreview = {
  next_runs: ['2026-01-01T10:15:34.250Z', '2026-01-01T10:16:04.250Z', '2026-01-01T10:16:34.250Z'],
  executions_per_30_days: 86_400,
  jitter_offset_seconds: 4.25,
  plan: 'pro',
  execution_quota: 10_000,
};
