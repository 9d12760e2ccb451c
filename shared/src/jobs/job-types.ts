import type { PlanId } from '../plans';
import type { CatchUpPolicy, OverlapPolicy } from './schedule';

export type { CatchUpPolicy, OverlapPolicy } from './schedule';


/**
 * Types of the job API, shared by the backend, the web app, the desktop app
 * and the integrations. The OpenAPI document is generated from the same rules.
 */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const JOB_STATUSES = ['pending', 'scheduled', 'success', 'failed', 'paused', 'quota_reached'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * Statuses that count as "active" on the dashboard: scheduled to run (neither
 * paused nor held by the quota), whatever the last outcome was.
 */
export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = ['pending', 'scheduled', 'success', 'failed'];

/** Each job status by name, for code that sets or tests one (the database stores these strings). */
export const JOB_STATUS = {
  pending: 'pending',
  scheduled: 'scheduled',
  success: 'success',
  failed: 'failed',
  paused: 'paused',
  quotaReached: 'quota_reached',
} as const satisfies Record<string, JobStatus>;

/** Statuses in which the scheduler leaves a job alone: the user's pause, or the quota's. */
export const HELD_JOB_STATUSES: readonly JobStatus[] = [JOB_STATUS.paused, JOB_STATUS.quotaReached];

/** What started a run: its due time, a retry of a failure, the user ("run now"), or a catch-up after an outage. */
export const RUN_TRIGGER = { schedule: 'schedule', retry: 'retry', manual: 'manual', recovery: 'recovery' } as const;
export type RunTrigger = (typeof RUN_TRIGGER)[keyof typeof RUN_TRIGGER];

/** Where a run is in the queue: waiting for its due time, leased to an instance, or finished (a log line). */
export const RUN_STATE = { queued: 'queued', running: 'running', done: 'done' } as const;
export type RunState = (typeof RUN_STATE)[keyof typeof RUN_STATE];

/** How a finished run ended; skipped and missed runs never executed. */
export const RUN_OUTCOME = { success: 'success', failed: 'failed', skipped: 'skipped', missed: 'missed' } as const;
export type RunOutcome = (typeof RUN_OUTCOME)[keyof typeof RUN_OUTCOME];

/**
 * What becomes of a run that may have reached its target when the instance
 * sending it died (it was on the wire, or its answer was not yet stored):
 * sent again with the same execution id and marked a possible duplicate
 * (`at_least_once`), or recorded as failed with its outcome unknown and not
 * sent again (`at_most_once`). Runs certainly not sent are always sent.
 */
export const DELIVERIES = ['at_least_once', 'at_most_once'] as const;
export type Delivery = (typeof DELIVERIES)[number];
export const DEFAULT_DELIVERY: Delivery = 'at_least_once';

/** Failures a retry policy can retry: no answer in time, no connection (DNS, refused, reset, TLS), a 5xx, a 429. */
export const RETRY_OUTCOMES = ['timeout', 'network', '5xx', '429'] as const;
export type RetryOutcome = (typeof RETRY_OUTCOMES)[number];

/** How a job's failed scheduled runs are retried (rules and defaults in retry-policy.ts). */
export interface RetryPolicy {
  /** Retries after the first attempt, 0 to 10. */
  attempts: number;
  /** The first retry's wait; each later one doubles it. Null: the server's base (10 s unless its operator changed it). */
  initial_backoff_seconds: number | null;
  /** No wait is longer, a Retry-After header's included. */
  max_backoff_seconds: number;
  /** Failures that are retried. */
  retry_on: RetryOutcome[];
  /** 4xx statuses that are retried too (for example 408 or 409). */
  retry_on_status: number[];
}

/** A job's request carries `Authorization: Bearer <JWT>` signed by Cronbeam (see request-signing.ts). */
export interface IdentityToken {
  /** The token's `aud`; null: the job's URL. */
  audience: string | null;
}

/**
 * What counts as a successful response for a job. Without rules a run
 * succeeds on any 2xx status; with them every rule given must hold.
 */
export interface ResponseRules {
  /** Status codes and ranges, e.g. "200-299, 304". */
  expected_status: string;
  /** Text the response body must contain (case-sensitive). */
  body_contains: string | null;
  /** A JSON path into the response body, e.g. "$.status" or "$.checks[0].ok"; with json_equals. */
  json_path: string | null;
  /** The value found at json_path must equal this JSON value. */
  json_equals: string | number | boolean | null;
}

/** A job as every API answers it. Times are ISO 8601 strings in UTC. */
export interface Job {
  job_id: string;
  name: string;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string;
  /** 5 fields, or 6 with a leading second; null when the job runs on an interval (every_seconds) or once (run_at). */
  cron_expression: string | null;
  /** IANA zone whose clocks the cron expression is read on. */
  time_zone: string;
  /** Runs every this many seconds, counted from starts_at or the creation instant; null: another form. */
  every_seconds: number | null;
  /** Runs once, at this instant; null: another form. */
  run_at: string | null;
  /** No run before this instant; null: from now. */
  starts_at: string | null;
  /** No run after this instant; null: no end. */
  ends_at: string | null;
  /** Each run is shifted by a fixed per-job offset within this many seconds (0: none). */
  jitter_seconds: number;
  /** skip: a due run whose previous run of the job is still in flight is recorded as skipped, not sent. */
  overlap: OverlapPolicy;
  /** What fires of the due times missed in an outage or a pause: the latest, none, or all within catch_up_window_seconds. */
  catch_up: CatchUpPolicy;
  /** With catch_up all_within: how far back missed due times still fire; null otherwise. */
  catch_up_window_seconds: number | null;
  /** What counts as success; null: any 2xx status. */
  response_rules: ResponseRules | null;
  /** The request's own time limit; null: the server's. */
  timeout_seconds: number | null;
  /** Pause the job after this many failed runs in a row; null: never. */
  auto_pause_after: number | null;
  /** Alert (with notify_on_failure) after this many failed runs in a row, and on the success that ends them; 1: at the first. */
  alert_after_failures: number;
  /** For an https URL: alert this many days before its certificate expires, and when it has; null: no certificate alerts. */
  certificate_alert_days: number | null;
  /** After a crash, a run that may have reached its target is sent again or recorded as unknown. */
  delivery: Delivery;
  /** Lower-case labels for filtering, bulk actions, maintenance windows and status pages; [] when none. */
  tags: string[];
  /** How failed scheduled runs are retried (count, waits, which failures). */
  retry: RetryPolicy;
  /** Send a Cronbeam-signed JWT in Authorization; null: none. */
  identity_token: IdentityToken | null;
  /** Where each completed run's outcome is POSTed (signed like alert webhooks); null: nowhere. */
  callback_url: string | null;
  /**
   * The secret of the job's X-Cronbeam-Signature: answered once, when the job
   * is created (and by a rotation); absent from every other answer.
   */
  signing_secret?: string;
  status: JobStatus;
  notify_on_failure: boolean;
  /** The expiry of the certificate the target presented at the latest https run; null before one (or for http). */
  certificate_expires_at: string | null;
  next_run_at: string | null;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The fields of a job only the server sets. Sent back with a job (PUT of a
 * job as GET answered it, or POST of a copy) they are ignored.
 */
export const JOB_READ_ONLY_FIELDS = ['job_id', 'status', 'next_run_at', 'last_run_at', 'created_at', 'updated_at', 'signing_secret', 'certificate_expires_at'] as const satisfies ReadonlyArray<keyof Job>;
export type JobReadOnlyField = (typeof JOB_READ_ONLY_FIELDS)[number];

/** What a client sends to create or (in full) replace a job. */
export interface JobDefinition {
  name: string;
  url: string;
  method?: HttpMethod;
  headers?: Record<string, string>;
  body?: string;
  /** One of cron_expression, every_seconds and run_at. */
  cron_expression?: string | null;
  /** IANA zone name; UTC when omitted. */
  time_zone?: string;
  every_seconds?: number | null;
  run_at?: string | null;
  starts_at?: string | null;
  ends_at?: string | null;
  jitter_seconds?: number;
  overlap?: OverlapPolicy;
  catch_up?: CatchUpPolicy;
  catch_up_window_seconds?: number | null;
  response_rules?: Partial<ResponseRules> | null;
  timeout_seconds?: number | null;
  auto_pause_after?: number | null;
  alert_after_failures?: number;
  certificate_alert_days?: number | null;
  delivery?: Delivery;
  tags?: string[];
  retry?: Partial<RetryPolicy>;
  identity_token?: Partial<IdentityToken> | null;
  callback_url?: string | null;
  notify_on_failure?: boolean;
}

/** POST …/jobs/schedule-preview: a schedule's next runs, before it is saved. */
export interface SchedulePreviewRequest {
  name?: string;
  cron_expression?: string | null;
  time_zone?: string;
  every_seconds?: number | null;
  run_at?: string | null;
  starts_at?: string | null;
  ends_at?: string | null;
  jitter_seconds?: number;
  /** How many next runs to answer (1-50, default 5). */
  count?: number;
}

export interface SchedulePreview {
  /** The next instants the job would run at, jitter included. */
  next_runs: string[];
  /** Runs in the 30 days from now (retries not counted); each counts toward the monthly quota. */
  executions_per_30_days: number;
  /** The fixed offset jitter gives this job (it depends on the owner and the job's name). */
  jitter_offset_seconds: number;
  plan: PlanId;
  /** The plan's executions per month. */
  execution_quota: number;
}

/** One execution as the logs endpoints answer it, newest first. */
export interface JobLogEntry {
  run_id: string;
  executed_at: string | null;
  scheduled_for: string;
  attempt: number;
  trigger: RunTrigger;
  status: RunOutcome;
  response_code: number | null;
  duration_ms: number | null;
  error_message: string | null;
  response_body: string | null;
  /** Sent again after the instance sending it died while it may have been on the wire: the target may have seen it twice. */
  possible_duplicate: boolean;
  /** Why the run's failure alerted no one, e.g. a maintenance window muted it; null otherwise. */
  alert_note: string | null;
}

/** GET …/jobs/{id}/logs. */
export interface JobLogsResponse {
  logs: JobLogEntry[];
}

/** The 403 `detail` when a plan's job count is used up. */
export type JobLimitExceeded = {
  error: 'Job limit exceeded';
  plan: PlanId;
  job_count: number;
  max_jobs: number;
};

/** GET /api/dashboard: the dashboard's stat cards (jobs by state, plan limits, this month's usage). */
export interface DashboardStats {
  total_jobs: number;
  active_jobs: number;
  failed_jobs: number;
  /** Jobs plus heartbeat monitors: both count toward max_jobs. */
  job_count: number;
  max_jobs: number;
  /** Heartbeat monitors, and those of them that are down (absent from servers older than monitors, which the desktop app may talk to). */
  total_monitors?: number;
  monitors_down?: number;
  executions_used: number;
  execution_quota: number;
  plan: PlanId;
  n8n_deployments_used: number;
  n8n_deployments_quota: number;
}
