import { DEFAULT_CERTIFICATE_ALERT_DAYS, jobDefinitionSchema } from '@cronbeam/shared/jobs/job-rules';
import { DEFAULT_DELIVERY, RETRY_OUTCOMES, type Delivery, type HttpMethod, type Job, type JobDefinition, type RetryOutcome, type RetryPolicy } from '@cronbeam/shared/jobs/job-types';
import { tagsFromText, tagsToText } from '@cronbeam/shared/tags/tags';
import { DEFAULT_RETRY_POLICY, RETRY_LIMITS } from '@cronbeam/shared/jobs/retry-policy';
import { DEFAULT_CRON } from '../schedule/cron-builder';

export interface HeaderRow {
  id: number;
  name: string;
  value: string;
}

/** What the job form holds while it is being edited. */
export interface JobFormValues {
  name: string;
  method: HttpMethod;
  url: string;
  headers: HeaderRow[];
  body: string;
  cron_expression: string;
  time_zone: string;
  notify_on_failure: boolean;
  /** Response rules as typed; all empty (or the default status list alone) means no rules. */
  expected_status: string;
  body_contains: string;
  json_path: string;
  json_equals: string;
  timeout_seconds: string;
  auto_pause_after: string;
  /** With alerts on: failed runs in a row before the alert; empty means 1. */
  alert_after_failures: string;
  /** For https URLs: days before the certificate expires to alert; empty means never. */
  certificate_alert_days: string;
  /** After a crash, a run that may have reached its target is sent again or recorded as unknown. */
  delivery: Delivery;
  /** Comma-separated, as typed. */
  tags: string;
  /** The retry policy as typed: retries after the first attempt (empty: the plan default). */
  retry_attempts: string;
  /** The first retry's wait in seconds; empty: the server's base wait. */
  retry_initial_backoff_seconds: string;
  /** No wait is longer; empty: the default (3600). */
  retry_max_backoff_seconds: string;
  retry_on: RetryOutcome[];
  /** 4xx statuses retried too, separated by commas or spaces. */
  retry_on_status: string;
  /** Requests carry a Cronbeam-signed JWT in Authorization. */
  identity_token: boolean;
  /** The token's audience; empty: the job's URL. */
  identity_token_audience: string;
  /** Where each completed run's outcome is POSTed, as typed; empty: none. */
  callback_url: string;
  /** Which form of schedule the job has: the cron expression, an interval (every_seconds) or one run (run_at). */
  schedule_kind: ScheduleKind;
  /** The schedule fields beyond the cron expression (interval, one-off run, window, jitter, policies). */
  schedule: ScheduleExtras;
}

export type ScheduleKind = 'cron' | 'every' | 'once';

/** A job's schedule fields beyond its cron expression. */
export type ScheduleExtras = Pick<Job, 'every_seconds' | 'run_at' | 'starts_at' | 'ends_at' | 'jitter_seconds' | 'overlap' | 'catch_up' | 'catch_up_window_seconds'>;

export const DEFAULT_SCHEDULE_EXTRAS: ScheduleExtras = {
  every_seconds: null,
  run_at: null,
  starts_at: null,
  ends_at: null,
  jitter_seconds: 0,
  overlap: 'allow',
  catch_up: 'latest',
  catch_up_window_seconds: null,
};

/** The fields whose messages the form shows next to them. */
export type JobFormField =
  | 'name'
  | 'url'
  | 'method'
  | 'headers'
  | 'body'
  | 'cron_expression'
  | 'time_zone'
  | 'notify_on_failure'
  | 'response_rules'
  | 'timeout_seconds'
  | 'auto_pause_after'
  | 'alert_after_failures'
  | 'certificate_alert_days'
  | 'tags'
  | 'retry'
  | 'identity_token'
  | 'callback_url'
  | 'every_seconds'
  | 'run_at'
  | 'starts_at'
  | 'ends_at'
  | 'jitter_seconds'
  | 'overlap'
  | 'catch_up'
  | 'catch_up_window_seconds';
export type JobFormErrors = Partial<Record<JobFormField, string>>;

let nextRowId = 1;
export const headerRow = (name = '', value = ''): HeaderRow => ({ id: nextRowId++, name, value });

export const EMPTY_FORM: JobFormValues = {
  name: '',
  method: 'GET',
  url: '',
  headers: [],
  body: '',
  cron_expression: DEFAULT_CRON,
  time_zone: 'UTC',
  notify_on_failure: false,
  expected_status: '',
  body_contains: '',
  json_path: '',
  json_equals: '',
  timeout_seconds: '',
  auto_pause_after: '',
  alert_after_failures: '1',
  certificate_alert_days: String(DEFAULT_CERTIFICATE_ALERT_DAYS),
  delivery: DEFAULT_DELIVERY,
  tags: '',
  ...retryValues(DEFAULT_RETRY_POLICY),
  identity_token: false,
  identity_token_audience: '',
  callback_url: '',
  schedule_kind: 'cron',
  schedule: DEFAULT_SCHEDULE_EXTRAS,
};

/** A retry policy as the form shows it. */
function retryValues(policy: RetryPolicy): Pick<JobFormValues, 'retry_attempts' | 'retry_initial_backoff_seconds' | 'retry_max_backoff_seconds' | 'retry_on' | 'retry_on_status'> {
  return {
    retry_attempts: String(policy.attempts),
    retry_initial_backoff_seconds: policy.initial_backoff_seconds === null ? '' : String(policy.initial_backoff_seconds),
    retry_max_backoff_seconds: String(policy.max_backoff_seconds),
    retry_on: [...policy.retry_on],
    retry_on_status: policy.retry_on_status.join(', '),
  };
}

/** The retry policy the form sends: empty numbers take their defaults; what is not a number is sent as typed, so the shared rules name it. */
function retryFromValues(values: JobFormValues): RetryPolicy {
  const statuses = values.retry_on_status
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((status) => (/^\d+$/.test(status) ? Number(status) : status));
  return {
    attempts: (numberOf(values.retry_attempts) ?? RETRY_LIMITS.defaultAttempts) as number,
    initial_backoff_seconds: numberOf(values.retry_initial_backoff_seconds) as number | null,
    max_backoff_seconds: (numberOf(values.retry_max_backoff_seconds) ?? RETRY_LIMITS.defaultMaxBackoffSeconds) as number,
    // In the API's order, whatever order they were ticked in.
    retry_on: RETRY_OUTCOMES.filter((outcome) => values.retry_on.includes(outcome)),
    retry_on_status: statuses as number[],
  };
}

const DEFAULT_STATUSES = '200-299';

/** The JSON value as typed: a JSON scalar (42, true, null, "x") when it parses as one, else the text itself. */
function jsonValueOf(text: string): string | number | boolean | null {
  try {
    const value: unknown = JSON.parse(text);
    return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? (value as string | number | boolean | null) : text;
  } catch {
    return text;
  }
}

/** A whole number as typed, the text itself when it is not one (the rules then name the field), null when empty. */
function numberOf(text: string): number | string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The form's values for editing an existing job. */
export function valuesFromJob(job: Job): JobFormValues {
  return {
    name: job.name,
    method: job.method,
    url: job.url,
    headers: Object.entries(job.headers ?? {}).map(([name, value]) => headerRow(name, value)),
    body: job.body ?? '',
    cron_expression: job.cron_expression ?? '',
    time_zone: job.time_zone ?? 'UTC',
    notify_on_failure: job.notify_on_failure,
    expected_status: job.response_rules?.expected_status ?? '',
    body_contains: job.response_rules?.body_contains ?? '',
    json_path: job.response_rules?.json_path ?? '',
    json_equals: job.response_rules?.json_path ? JSON.stringify(job.response_rules.json_equals) : '',
    timeout_seconds: job.timeout_seconds === null || job.timeout_seconds === undefined ? '' : String(job.timeout_seconds),
    auto_pause_after: job.auto_pause_after === null || job.auto_pause_after === undefined ? '' : String(job.auto_pause_after),
    alert_after_failures: String(job.alert_after_failures ?? 1),
    certificate_alert_days: job.certificate_alert_days === null ? '' : String(job.certificate_alert_days ?? DEFAULT_CERTIFICATE_ALERT_DAYS),
    delivery: job.delivery ?? DEFAULT_DELIVERY,
    tags: tagsToText(job.tags ?? []),
    ...retryValues(job.retry ?? DEFAULT_RETRY_POLICY),
    identity_token: Boolean(job.identity_token),
    identity_token_audience: job.identity_token?.audience ?? '',
    callback_url: job.callback_url ?? '',
    schedule_kind: job.run_at ? 'once' : job.every_seconds ? 'every' : 'cron',
    schedule: {
      every_seconds: job.every_seconds ?? null,
      run_at: job.run_at ?? null,
      starts_at: job.starts_at ?? null,
      ends_at: job.ends_at ?? null,
      jitter_seconds: job.jitter_seconds ?? 0,
      overlap: job.overlap ?? 'allow',
      catch_up: job.catch_up ?? 'latest',
      catch_up_window_seconds: job.catch_up_window_seconds ?? null,
    },
  };
}

/**
 * The definition sent to the API: texts trimmed, header rows with an empty
 * name or value dropped (a half-filled row is not a header). React escapes text when it renders it, so
 * the values are sent as the user typed them rather than HTML-escaped.
 */
export function definitionFromValues(values: JobFormValues): JobDefinition {
  const cronText = values.cron_expression.trim().split(/\s+/).join(' ');
  const headers: Record<string, string> = {};
  for (const row of values.headers) {
    const name = row.name.trim();
    const value = row.value.trim();
    if (name && value) headers[name] = value;
  }
  return {
    name: values.name.trim(),
    method: values.method,
    url: values.url.trim(),
    headers,
    body: values.body,
    // One form of schedule, the one chosen; the others are none.
    cron_expression: values.schedule_kind === 'cron' ? cronText : null,
    time_zone: values.time_zone,
    notify_on_failure: values.notify_on_failure,
    response_rules: rulesFromValues(values),
    timeout_seconds: numberOf(values.timeout_seconds) as number | null,
    auto_pause_after: numberOf(values.auto_pause_after) as number | null,
    alert_after_failures: (numberOf(values.alert_after_failures) ?? 1) as number,
    certificate_alert_days: numberOf(values.certificate_alert_days) as number | null,
    delivery: values.delivery,
    tags: tagsFromText(values.tags),
    retry: retryFromValues(values),
    identity_token: values.identity_token ? { audience: values.identity_token_audience.trim() || null } : null,
    callback_url: values.callback_url.trim() || null,
    ...values.schedule,
    // Chosen but left empty, the field is sent as such, so the shared rules name it (not the cron expression).
    every_seconds: values.schedule_kind === 'every' ? (values.schedule.every_seconds ?? ('' as unknown as number)) : null,
    run_at: values.schedule_kind === 'once' ? (values.schedule.run_at ?? '') : null,
  };
}

/** No rules unless one is set beyond the default 2xx. */
function rulesFromValues(values: JobFormValues): JobDefinition['response_rules'] {
  const statuses = values.expected_status.trim();
  const path = values.json_path.trim();
  if ((!statuses || statuses === DEFAULT_STATUSES) && !values.body_contains && !path) return null;
  return {
    expected_status: statuses || DEFAULT_STATUSES,
    body_contains: values.body_contains || null,
    json_path: path || null,
    ...(path ? { json_equals: jsonValueOf(values.json_equals.trim()) } : {}),
  };
}

/** Every field's first message under the shared job rules (the API checks the same rules). */
export function validateJobForm(values: JobFormValues): JobFormErrors {
  const result = jobDefinitionSchema.safeParse(definitionFromValues(values));
  if (result.success) return {};
  const errors: JobFormErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as JobFormField;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** The 422 issues of the API mapped onto the form's fields. */
export function errorsFromIssues(issues: { loc: (string | number)[]; msg: string }[]): JobFormErrors {
  const errors: JobFormErrors = {};
  for (const issue of issues) {
    const field = String(issue.loc[0] === 'body' ? issue.loc[1] : issue.loc[0]) as JobFormField;
    if (!errors[field]) errors[field] = issue.msg;
  }
  return errors;
}

/** A non-blocking notice: targets usually expect JSON, but any text may be sent. */
export const BODY_NOT_JSON = 'This body is not valid JSON; it will be sent as plain text';

export function bodyWarning(body: string): string | null {
  if (!body.trim()) return null;
  try {
    JSON.parse(body);
    return null;
  } catch {
    return BODY_NOT_JSON;
  }
}
