import type { ApiKeySummary } from './api-key-types';
import { ALERT_AFTER_MAX, CERTIFICATE_ALERT_DAYS_MAX, DEFAULT_CERTIFICATE_ALERT_DAYS, JOB_LIMITS } from './job-rules';
import { TAG_LIMITS, TAG_PATTERN } from '../tags/tags';
import { RESPONSE_RULE_LIMITS } from './response-rules';
import { DEFAULT_RETRY_POLICY, RETRY_LIMITS, RETRY_OUTCOMES } from './retry-policy';
import { SIGNING_LIMITS } from './request-signing';
import { IMPORT_LIMITS, JOB_EXPORT_FORMAT, type JobExport, type JobImportItem, type JobImportRequest, type JobImportResult } from './job-transfer';
import { CATCH_UP_POLICIES, OVERLAP_POLICIES, SCHEDULE_LIMITS } from './schedule';
import { DEFAULT_DELIVERY, DELIVERIES, HTTP_METHODS, JOB_STATUSES, type Job, type JobDefinition, type SchedulePreview, type SchedulePreviewRequest, type JobLimitExceeded, type JobLogEntry, type JobLogsResponse, type JobReadOnlyField } from './job-types';

/**
 * JSON Schemas (OpenAPI 3 dialect) of the public API types. Each `properties`
 * map is typed against its TypeScript interface, so adding or renaming a
 * field there does not compile until the document follows; a test also
 * compares them with live answers.
 */
export interface SchemaObject {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  format?: string;
  description?: string;
  enum?: readonly string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  maxProperties?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  readOnly?: boolean;
  default?: unknown;
  example?: unknown;
  items?: SchemaObject | { $ref: string };
  anyOf?: SchemaObject[];
  properties?: Record<string, SchemaObject | { $ref: string }>;
  additionalProperties?: SchemaObject | boolean;
  required?: readonly string[];
}

type ObjectSchema<T> = SchemaObject & { type: 'object'; properties: { [K in keyof T]-?: SchemaObject | { $ref: string } } };

/** The tags of a job or monitor, as both define and answer them. */
export const TAGS_SCHEMA: SchemaObject = {
  type: 'array',
  maxItems: TAG_LIMITS.maxPerItem,
  items: { type: 'string', minLength: 1, maxLength: TAG_LIMITS.maxLength, pattern: TAG_PATTERN.source },
  default: [],
  description: `At most ${TAG_LIMITS.maxPerItem} labels, stored lower-case, each kept once in the order given. GET …?tag=<tag> lists the items carrying one; POST …/bulk-action pauses, resumes or deletes them.`,
  example: ['prod', 'billing'],
};

const timestamp = (description: string, nullable = false): SchemaObject => ({ type: 'string', format: 'date-time', description, nullable });

const jobDefinitionProperties: ObjectSchema<JobDefinition>['properties'] = {
  name: {
    type: 'string',
    minLength: 1,
    maxLength: JOB_LIMITS.nameMaxLength,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'Letters, digits, hyphens and underscores; unique per user (case-insensitive).',
    example: 'nightly-backup',
  },
  url: { type: 'string', format: 'uri', maxLength: JOB_LIMITS.urlMaxLength, description: 'Absolute http:// or https:// URL.', example: 'https://example.com/hooks/backup' },
  method: { type: 'string', enum: HTTP_METHODS, default: 'GET' },
  headers: {
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: JOB_LIMITS.maxHeaders,
    default: {},
    description: 'Header names to values; names and values are trimmed and empty ones dropped. Hop-by-hop headers are refused.',
    example: { Authorization: 'Bearer <target token>' },
  },
  body: { type: 'string', default: '', description: `Request body, at most ${JOB_LIMITS.bodyMaxBytes / 1024} KiB. A JSON object is accepted and stored as its JSON text.` },
  cron_expression: {
    type: 'string',
    nullable: true,
    description:
      'One of the three schedule forms (give exactly one of cron_expression, every_seconds and run_at). 5 fields read on the clocks of time_zone: minute 0-59, hour 0-23, day of month 1-31, month 1-12 or JAN-DEC, day of week 0-6 or SUN-SAT (Sunday = 0); or 6 with a leading second 0-59. The plan sets the shortest gap between runs (free 60 s, basic 10 s, pro 1 s).',
    example: '0 9 * * 1-5',
  },
  every_seconds: {
    type: 'integer',
    nullable: true,
    default: null,
    minimum: 1,
    maximum: SCHEDULE_LIMITS.maxEverySeconds,
    description: "Run every this many seconds (up to 30 days), counted from starts_at or else from the second the job got its interval; at least the plan's shortest gap.",
    example: 300,
  },
  run_at: { ...timestamp('Run once, at this instant (with its offset; must be in the future when the job is created). After its run the job keeps its outcome as status and has no next run.', true), default: null },
  starts_at: { ...timestamp('No run before this instant (cron and interval schedules); an interval counts from it.', true), default: null },
  ends_at: { ...timestamp('No run after this instant (cron and interval schedules); after it the job has no next run.', true), default: null },
  jitter_seconds: {
    type: 'integer',
    minimum: 0,
    maximum: SCHEDULE_LIMITS.maxJitterSeconds,
    default: 0,
    description: "Shift every run by a fixed offset within this many seconds, the same for every run of the job (it depends on the owner and the job's name; POST …/jobs/schedule-preview shows it), so that many jobs on one schedule do not hit a target at once.",
  },
  overlap: {
    type: 'string',
    enum: OVERLAP_POLICIES,
    default: 'allow',
    description: 'skip: a due run whose previous run of the job is still in flight is recorded as skipped (not sent, not counted toward the quota); allow: it is sent.',
  },
  catch_up: {
    type: 'string',
    enum: CATCH_UP_POLICIES,
    default: 'latest',
    description:
      'What runs of the due times missed while the scheduler was down, or while the job was paused: latest fires the latest missed one after an outage (a resume starts at the next due time); none fires nothing missed; all_within fires every due time within catch_up_window_seconds before now, oldest first (also on resume). Missed ones are logged with status missed.',
  },
  catch_up_window_seconds: {
    type: 'integer',
    nullable: true,
    default: null,
    minimum: 1,
    maximum: SCHEDULE_LIMITS.maxCatchUpWindowSeconds,
    description: 'With catch_up all_within (and only then): how far back a missed due time still runs.',
  },
  time_zone: {
    type: 'string',
    default: 'UTC',
    maxLength: 64,
    description:
      'IANA time zone name the schedule is read in. A local time the clocks skip (spring) fires once, as far after the change as it was after the last valid minute; a local time shown twice (autumn) fires once, at its first occurrence.',
    example: 'Europe/Berlin',
  },
  response_rules: {
    type: 'object',
    nullable: true,
    default: null,
    additionalProperties: false,
    description:
      'What counts as a successful response; null: any 2xx. Every rule given must hold, and a failed run names the rule it broke. Body rules look at the start of the body the server keeps.',
    properties: {
      expected_status: { type: 'string', default: '200-299', description: 'Status codes and ranges from 100 to 599.', example: '200-299, 304' },
      body_contains: { type: 'string', nullable: true, maxLength: RESPONSE_RULE_LIMITS.bodyContainsMaxLength, description: 'Text the body must contain (case-sensitive).' },
      json_path: { type: 'string', nullable: true, maxLength: RESPONSE_RULE_LIMITS.jsonPathMaxLength, description: 'Path into a JSON body, e.g. $.status or $.items[0].ok; needs json_equals.', example: '$.status' },
      json_equals: {
        anyOf: [{ type: 'string', nullable: true }, { type: 'number' }, { type: 'boolean' }],
        description: 'The value json_path must hold: text, a number, true, false or null. Without json_path: null (or left out).',
        example: 'ok',
      },
    },
  },
  timeout_seconds: {
    type: 'integer',
    nullable: true,
    default: null,
    minimum: RESPONSE_RULE_LIMITS.minTimeoutSeconds,
    description:
      "The request's own time limit in seconds, at most the plan's (free 30, basic 300, pro 1800) and the server's (EXECUTION_TIMEOUT_MS); null: 30 s (or the server's, when lower).",
  },
  auto_pause_after: {
    type: 'integer',
    nullable: true,
    default: null,
    minimum: 1,
    description: 'Pause the job (and email its owner) after this many failed runs in a row; null: never.',
  },
  alert_after_failures: {
    type: 'integer',
    default: 1,
    minimum: 1,
    maximum: ALERT_AFTER_MAX,
    description: 'With notify_on_failure: alert after this many failed runs in a row (a run fails once its retries are spent), and once on the success that ends them; 1: at the first failure.',
  },
  certificate_alert_days: {
    type: 'integer',
    nullable: true,
    default: DEFAULT_CERTIFICATE_ALERT_DAYS,
    minimum: 1,
    maximum: CERTIFICATE_ALERT_DAYS_MAX,
    description: "For an https URL: alert (mail and channels) this many days before the target's certificate expires, and once it has, once per certificate; null: never.",
  },
  delivery: {
    type: 'string',
    enum: DELIVERIES,
    default: DEFAULT_DELIVERY,
    description:
      'What becomes of a run that may have reached its target when the server sending it stopped (crash): at_least_once sends it again with the same X-Cronbeam-Execution-Id and marks it possible_duplicate in the log; at_most_once records it failed with its outcome unknown and does not send it again. Runs certainly not sent are sent in both cases.',
  },
  tags: TAGS_SCHEMA,
  retry: {
    type: 'object',
    additionalProperties: false,
    default: DEFAULT_RETRY_POLICY,
    description:
      'How a failed scheduled run is retried (manual runs never are). Each retry is a new execution of the quota, logged with its attempt number; alerts and auto-pause count a run once its retries are spent.',
    properties: {
      attempts: { type: 'integer', minimum: 0, maximum: RETRY_LIMITS.maxAttempts, default: RETRY_LIMITS.defaultAttempts, description: 'Retries after the first attempt; 0: none.' },
      initial_backoff_seconds: {
        type: 'integer',
        nullable: true,
        minimum: RETRY_LIMITS.minBackoffSeconds,
        maximum: RETRY_LIMITS.maxInitialBackoffSeconds,
        default: null,
        description: "The first retry's wait; each later one doubles it. null: the server's base (10 s unless its operator changed RETRY_BACKOFF_BASE_MS).",
      },
      max_backoff_seconds: {
        type: 'integer',
        minimum: RETRY_LIMITS.minBackoffSeconds,
        maximum: RETRY_LIMITS.maxBackoffSeconds,
        default: RETRY_LIMITS.defaultMaxBackoffSeconds,
        description: 'No wait is longer, also when the target asks for more with Retry-After (which is otherwise honoured, in seconds or as a date).',
      },
      retry_on: {
        type: 'array',
        items: { type: 'string', enum: RETRY_OUTCOMES },
        default: DEFAULT_RETRY_POLICY.retry_on,
        description: 'Failures that are retried: timeout (no answer in time), network (DNS, refused, reset, TLS, no free connection), 5xx, 429.',
      },
      retry_on_status: {
        type: 'array',
        items: { type: 'integer', minimum: 400, maximum: 499 },
        default: [],
        description: `4xx statuses retried as well, e.g. 408 or 409 (at most ${RETRY_LIMITS.maxStatuses}).`,
      },
    },
  },
  identity_token: {
    type: 'object',
    nullable: true,
    default: null,
    additionalProperties: false,
    description:
      'Send Authorization: Bearer <JWT> signed by Cronbeam (ES256, keys at /.well-known/target-jwks.json) with each request: iss the service URL, sub job:<id>, job_id, execution_id (also jti), aud, and a 5-minute exp. null: none. Cannot be combined with an Authorization header of the job.',
    properties: {
      audience: { type: 'string', nullable: true, default: null, maxLength: SIGNING_LIMITS.audienceMaxLength, description: "The token's aud; null: the job's URL." },
    },
  },
  callback_url: {
    type: 'string',
    nullable: true,
    default: null,
    maxLength: JOB_LIMITS.urlMaxLength,
    description:
      'POST each completed run\'s outcome here (JSON: event run.completed, job_id, run_id, status, response_code, duration_ms, attempt, error_message, response_body cut to 4096 characters), signed like alert webhooks: X-Cronbeam-Signature t=…,v1=HMAC-SHA256 of "<t>.<body>" with the job\'s signing secret. Once per run (a retried run gives one callback, its last attempt\'s), retried up to 3 times. The same address rules as url. null: none.',
  },
  notify_on_failure: { type: 'boolean', default: false, description: 'Email the owner when a run fails.' },
};

/** What only the server sets: answered with every job, ignored when a job is sent back. */
const readOnlyJobProperties: ObjectSchema<Pick<Job, JobReadOnlyField>>['properties'] = {
  job_id: { type: 'string', format: 'uuid', readOnly: true, example: '8b7f7c1e-2f4c-4a8e-9f55-0f3b6d3f3a10' },
  status: {
    type: 'string',
    enum: JOB_STATUSES,
    readOnly: true,
    description: 'pending until the first run, then scheduled/success/failed; paused; quota_reached when the monthly executions are used up.',
  },
  next_run_at: { ...timestamp('Next due time (UTC), jitter included; null while paused and when nothing is left to run (a one-off run done, ends_at passed).', true), readOnly: true },
  last_run_at: { ...timestamp('Time of the latest execution; null before the first.', true), readOnly: true },
  created_at: { ...timestamp('Creation time.'), readOnly: true },
  updated_at: { ...timestamp('Last change.'), readOnly: true },
  certificate_expires_at: { ...timestamp("Expiry of the certificate the target presented at the latest https run; null before one, and for http URLs.", true), readOnly: true },
  signing_secret: {
    type: 'string',
    readOnly: true,
    description:
      'The secret of the X-Cronbeam-Signature header every request of the job carries (HMAC-SHA256 of "<t>.<METHOD>.<URL>.<body>"): answered only when the job is created and by POST …/signing-secret, which replaces it.',
  },
};

export const JOB_DEFINITION_SCHEMA: ObjectSchema<JobDefinition & Partial<Pick<Job, JobReadOnlyField>>> = {
  type: 'object',
  description: 'A job as GET answers it may be sent back unchanged: its read-only fields are ignored.',
  required: ['name', 'url'],
  properties: { ...jobDefinitionProperties, ...readOnlyJobProperties },
  additionalProperties: false,
};

export const JOB_SCHEMA: ObjectSchema<Job> = {
  type: 'object',
  required: ['job_id', 'name', 'url', 'method', 'headers', 'body', 'cron_expression', 'time_zone', 'every_seconds', 'run_at', 'starts_at', 'ends_at', 'jitter_seconds', 'overlap', 'catch_up', 'catch_up_window_seconds', 'response_rules', 'timeout_seconds', 'auto_pause_after', 'alert_after_failures', 'certificate_alert_days', 'delivery', 'tags', 'retry', 'identity_token', 'callback_url', 'status', 'notify_on_failure', 'certificate_expires_at', 'next_run_at', 'last_run_at', 'created_at', 'updated_at'],
  properties: {
    ...jobDefinitionProperties,
    ...readOnlyJobProperties,
    method: { type: 'string', enum: HTTP_METHODS },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: { type: 'string' },
    notify_on_failure: { type: 'boolean' },
  },
};

export const JOB_LOG_ENTRY_SCHEMA: ObjectSchema<JobLogEntry> = {
  type: 'object',
  properties: {
    run_id: { type: 'string', format: 'uuid' },
    executed_at: timestamp('When the request was sent; null for skipped runs.', true),
    scheduled_for: timestamp('The cron instant the run belongs to.'),
    attempt: { type: 'integer', minimum: 1, description: '1, or 2-4 for retries.' },
    trigger: { type: 'string', enum: ['schedule', 'retry', 'manual', 'recovery'] },
    status: { type: 'string', enum: ['success', 'failed', 'skipped', 'missed'] },
    response_code: { type: 'integer', nullable: true, example: 200 },
    duration_ms: { type: 'integer', nullable: true, example: 182 },
    error_message: { type: 'string', nullable: true },
    response_body: { type: 'string', nullable: true, description: 'The start of the response body.' },
    possible_duplicate: {
      type: 'boolean',
      description: 'Sent again after the server sending it stopped while it may have been on the wire: the target may have received it twice (same execution id).',
    },
    alert_note: {
      type: 'string',
      nullable: true,
      description: 'Why the failure alerted no one, e.g. \'Alert muted by maintenance window "deploy"\'; null otherwise.',
      example: null,
    },
  },
};

export const JOB_LOGS_RESPONSE_SCHEMA: ObjectSchema<JobLogsResponse> = {
  type: 'object',
  properties: { logs: { type: 'array', items: { $ref: '#/components/schemas/JobLogEntry' } } },
};

export const JOB_LIMIT_EXCEEDED_SCHEMA: ObjectSchema<JobLimitExceeded> = {
  type: 'object',
  properties: {
    error: { type: 'string', enum: ['Job limit exceeded'] },
    plan: { type: 'string', enum: ['free', 'basic', 'pro', 'unlimited'] },
    job_count: { type: 'integer', example: 2 },
    max_jobs: { type: 'integer', example: 2 },
  },
};

export const API_KEY_SUMMARY_SCHEMA: ObjectSchema<ApiKeySummary> = {
  type: 'object',
  properties: {
    key_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    prefix: { type: 'string', example: 'cb_live_1a2b3c' },
    created_at: timestamp('Creation time.'),
    last_used_at: timestamp('Latest use (minute resolution).', true),
  },
};

export const VALIDATION_ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, description: 'Where: the request part, then field names and list indexes.', example: ['body', 'jobs', 3, 'name'] },
          msg: { type: 'string', example: 'Name is required' },
          type: { type: 'string', example: 'too_small' },
        },
      },
    },
  },
};

export const MESSAGE_ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { detail: { type: 'string', example: 'Invalid API key' } },
};

const definitionRef = { $ref: '#/components/schemas/JobDefinition' };

export const JOB_EXPORT_SCHEMA: ObjectSchema<JobExport> = {
  type: 'object',
  required: ['format', 'version', 'exported_at', 'jobs'],
  properties: {
    format: { type: 'string', enum: [JOB_EXPORT_FORMAT] },
    version: { type: 'integer', minimum: 1, maximum: 1 },
    exported_at: timestamp('When the export was made.'),
    jobs: { type: 'array', items: definitionRef, description: 'Each job’s full definition, oldest first.' },
  },
};

export const JOB_IMPORT_REQUEST_SCHEMA: ObjectSchema<JobImportRequest> = {
  type: 'object',
  required: ['format', 'content'],
  additionalProperties: false,
  properties: {
    format: { type: 'string', enum: ['json', 'crontab'], description: 'json: an export (or a list of job definitions); crontab: a crontab file.' },
    content: {
      type: 'string',
      maxLength: IMPORT_LIMITS.maxBytes,
      description: `The file's text (at most ${IMPORT_LIMITS.maxJobs} jobs). Crontab lines whose command calls an http(s) URL become jobs (curl/wget -X, -H and -d are read); CRON_TZ= sets the zone of the lines below it; @daily-style shortcuts are understood.`,
    },
    dry_run: { type: 'boolean', default: false, description: 'Answer the preview only; nothing is created.' },
  },
};

export const JOB_IMPORT_ITEM_SCHEMA: ObjectSchema<JobImportItem> = {
  type: 'object',
  properties: {
    source: { type: 'integer', description: 'Line of the crontab, or position in the JSON list (from 1).' },
    name: { type: 'string', nullable: true },
    action: { type: 'string', enum: ['create', 'refuse'] },
    reason: { type: 'string', nullable: true, description: 'Why the entry is refused.' },
    definition: { type: 'object', nullable: true, description: 'The definition that is (or would be) created, as JobDefinition.' },
    job_id: { type: 'string', format: 'uuid', nullable: true, description: 'The created job (not on a dry run).' },
  },
};

export const JOB_IMPORT_RESULT_SCHEMA: ObjectSchema<JobImportResult> = {
  type: 'object',
  properties: {
    dry_run: { type: 'boolean' },
    created: { type: 'integer', description: 'Jobs created (or, on a dry run, that would be).' },
    refused: { type: 'integer' },
    items: { type: 'array', items: { $ref: '#/components/schemas/JobImportItem' } },
  },
};

export const SCHEDULE_PREVIEW_REQUEST_SCHEMA: ObjectSchema<SchedulePreviewRequest> = {
  type: 'object',
  additionalProperties: false,
  description: "A job definition's schedule fields (exactly one of cron_expression, every_seconds and run_at), with the job's name for its jitter offset.",
  properties: {
    name: { type: 'string', maxLength: JOB_LIMITS.nameMaxLength, description: 'The jitter offset depends on it; without it, the offset of an unnamed job.' },
    cron_expression: jobDefinitionProperties.cron_expression,
    time_zone: jobDefinitionProperties.time_zone,
    every_seconds: jobDefinitionProperties.every_seconds,
    run_at: jobDefinitionProperties.run_at,
    starts_at: jobDefinitionProperties.starts_at,
    ends_at: jobDefinitionProperties.ends_at,
    jitter_seconds: jobDefinitionProperties.jitter_seconds,
    count: { type: 'integer', minimum: 1, maximum: SCHEDULE_LIMITS.previewMaxCount, default: SCHEDULE_LIMITS.previewDefaultCount, description: 'How many next runs to answer.' },
  },
};

export const SCHEDULE_PREVIEW_SCHEMA: ObjectSchema<SchedulePreview> = {
  type: 'object',
  required: ['next_runs', 'executions_per_30_days', 'jitter_offset_seconds', 'plan', 'execution_quota'],
  properties: {
    next_runs: { type: 'array', items: { type: 'string', format: 'date-time' }, description: 'The next instants the job would run at (UTC), jitter included.' },
    executions_per_30_days: { type: 'integer', minimum: 0, description: 'Runs in the 30 days from now, retries not counted; each is an execution of the monthly quota. Exact for intervals and one-off runs, extrapolated from the first 5,000 runs for cron.' },
    jitter_offset_seconds: { type: 'number', minimum: 0, description: 'The fixed offset jitter_seconds gives this job.' },
    plan: { type: 'string', enum: ['free', 'basic', 'pro', 'unlimited'] },
    execution_quota: { type: 'integer', description: "The plan's executions per month." },
  },
};

/** Every schema the /prog document declares, by component name. */
export const PUBLIC_API_SCHEMAS = {
  JobDefinition: JOB_DEFINITION_SCHEMA,
  Job: JOB_SCHEMA,
  JobLogEntry: JOB_LOG_ENTRY_SCHEMA,
  JobLogsResponse: JOB_LOGS_RESPONSE_SCHEMA,
  JobLimitExceeded: JOB_LIMIT_EXCEEDED_SCHEMA,
  JobExport: JOB_EXPORT_SCHEMA,
  JobImportRequest: JOB_IMPORT_REQUEST_SCHEMA,
  JobImportItem: JOB_IMPORT_ITEM_SCHEMA,
  JobImportResult: JOB_IMPORT_RESULT_SCHEMA,
  SchedulePreviewRequest: SCHEDULE_PREVIEW_REQUEST_SCHEMA,
  SchedulePreview: SCHEDULE_PREVIEW_SCHEMA,
  ApiKeySummary: API_KEY_SUMMARY_SCHEMA,
  ValidationError: VALIDATION_ERROR_SCHEMA,
  MessageError: MESSAGE_ERROR_SCHEMA,
} as const;
