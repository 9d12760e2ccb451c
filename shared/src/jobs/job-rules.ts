import { z } from 'zod';
import { cronError } from '../cron/cron-parse';
import { CRON_MESSAGES } from '../cron/cron-messages';
import { DEFAULT_TIME_ZONE, TIME_ZONE_MESSAGE, isTimeZone } from '../cron/time-zone';
import { tagsSchema } from '../tags/tags';
import { JOB_LIMITS, JOB_LOGS_LIMITS } from './job-limits';
import { RESPONSE_RULE_LIMITS, RESPONSE_RULE_MESSAGES, responseRulesSchema, type ResponseRules } from './response-rules';
import { retryPolicySchema, type RetryPolicy } from './retry-policy';
import { identityTokenSchema } from './request-signing';
import { callbackUrlSchema } from './run-callbacks';
import { CATCH_UP_POLICIES, OVERLAP_POLICIES, SCHEDULE_LIMITS } from './schedule';
import { DEFAULT_DELIVERY, DELIVERIES, HTTP_METHODS, JOB_STATUSES, type IdentityToken, type JobDefinition, type JobReadOnlyField } from './job-types';

export { JOB_LIMITS, JOB_LOGS_LIMITS };

/** The longest per-job timeout any server accepts (the biggest plan's); the plan and the server's EXECUTION_TIMEOUT_MS may allow less. */
export const JOB_TIMEOUT_CAP_SECONDS = 7_200;
const AUTO_PAUSE_MAX = 1000;
/** The most failed runs (or missed pings) in a row an alert may wait for. */
export const ALERT_AFTER_MAX = 1000;
/** An https job's owner hears of its certificate this many days before it expires, by default; at most a year ahead. */
export const DEFAULT_CERTIFICATE_ALERT_DAYS = 14;
export const CERTIFICATE_ALERT_DAYS_MAX = 365;

/** Every text a user can see for a bad job definition; the web app, the API and the integrations show the same words. */
export const JOB_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${JOB_LIMITS.nameMaxLength} characters`,
  namePattern: 'Name can only contain letters, numbers, hyphens (-), and underscores (_)',
  nameTaken: 'A job with this name already exists',
  urlRequired: 'URL is required',
  urlInvalid: 'Please enter a valid URL',
  urlScheme: 'URL must start with http:// or https://',
  urlTooLong: `URL must be at most ${JOB_LIMITS.urlMaxLength} characters`,
  urlPrivate: 'URL must not point to a private, loopback or link-local address',
  httpWarning: 'Using HTTP is not secure - consider using HTTPS instead',
  method: `Method must be one of ${HTTP_METHODS.join(', ')}`,
  headersObject: 'Headers must be an object of header names to text values',
  tooManyHeaders: `At most ${JOB_LIMITS.maxHeaders} headers are allowed`,
  headerName: (name: string) => `'${name}' is not a valid HTTP header name`,
  headerValue: (name: string) => `Header '${name}' must have a text value of at most ${JOB_LIMITS.headerValueMaxLength} characters without line breaks`,
  headerForbidden: (name: string) => `Header '${name}' is managed by the connection and cannot be set`,
  body: 'Body must be text (or a JSON object, sent as its JSON text)',
  bodyTooLarge: `Body must be at most ${JOB_LIMITS.bodyMaxBytes / 1024} KiB`,
  notifyOnFailure: 'notify_on_failure must be true or false',
  delivery: `delivery must be one of: ${DELIVERIES.join(', ')}`,
  readOnly: (field: JobReadOnlyField) => `${field} is set by the server: leave it out, or send it as the API answered it (it is ignored)`,
  timeZone: TIME_ZONE_MESSAGE,
  timeout: RESPONSE_RULE_MESSAGES.timeout(JOB_TIMEOUT_CAP_SECONDS),
  autoPause: `auto_pause_after must be a whole number from 1 to ${AUTO_PAUSE_MAX} or null`,
  alertAfterFailures: `alert_after_failures must be a whole number from 1 to ${ALERT_AFTER_MAX}`,
  certificateAlertDays: `certificate_alert_days must be a whole number from 1 to ${CERTIFICATE_ALERT_DAYS_MAX}, or null for no certificate alerts`,
  scheduleOne: 'Give one schedule: cron_expression, every_seconds or run_at',
  everySeconds: `every_seconds must be a whole number of seconds from 1 to ${SCHEDULE_LIMITS.maxEverySeconds} (30 days) or null`,
  instant: (field: 'run_at' | 'starts_at' | 'ends_at') => `${field} must be a date and time with its offset (ISO 8601, e.g. 2026-12-01T09:00:00Z) or null`,
  endsBeforeStart: 'ends_at must be after starts_at',
  windowWithRunAt: 'starts_at and ends_at bound cron_expression and every_seconds schedules; a run_at job runs once at run_at',
  runAtPast: 'run_at must be in the future',
  endsAtPast: 'ends_at must be in the future',
  jitter: `jitter_seconds must be a whole number from 0 to ${SCHEDULE_LIMITS.maxJitterSeconds}`,
  overlap: `overlap must be one of: ${OVERLAP_POLICIES.join(', ')}`,
  catchUp: `catch_up must be one of: ${CATCH_UP_POLICIES.join(', ')}`,
  catchUpWindow: `catch_up_window_seconds must be a whole number from 1 to ${SCHEDULE_LIMITS.maxCatchUpWindowSeconds} with catch_up all_within`,
  catchUpWindowUnused: 'catch_up_window_seconds is only for catch_up all_within: leave it out or null',
  unknownField: 'Unknown field',
  notAnObject: 'Request body must be a JSON object',
  fixErrors: 'Please fix the errors before submitting',
} as const;

/** Hop-by-hop and framing headers: the HTTP client sets them, a job may not. */
export const FORBIDDEN_HEADERS: readonly string[] = [
  'connection',
  'content-length',
  'host',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const JOB_NAME = /^[A-Za-z0-9_-]+$/;

const requiredText = (message: string) => z.string({ error: message }).trim().min(1, { error: message, abort: true });

const nameSchema = requiredText(JOB_MESSAGES.nameRequired)
  .max(JOB_LIMITS.nameMaxLength, { error: JOB_MESSAGES.nameTooLong, abort: true })
  .regex(JOB_NAME, JOB_MESSAGES.namePattern);

/** Absolute http(s) URL; `new URL` is the same parser the browser and the executor use. */
const urlSchema = requiredText(JOB_MESSAGES.urlRequired)
  .max(JOB_LIMITS.urlMaxLength, { error: JOB_MESSAGES.urlTooLong, abort: true })
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.urlInvalid });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.urlScheme });
    else if (!url.hostname) ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.urlInvalid });
  });

/** GET, post, Put… are all accepted and stored upper-case. */
const methodSchema = z
  .string({ error: JOB_MESSAGES.method })
  .transform((value) => value.trim().toUpperCase())
  .pipe(z.enum(HTTP_METHODS, { error: JOB_MESSAGES.method }))
  .default('GET');

/**
 * Names and values are trimmed and rows with an empty name or value dropped
 * (as the job form does); what remains must be sendable as is.
 */
const headersSchema = z
  .record(z.string(), z.unknown(), { error: JOB_MESSAGES.headersObject })
  .default({})
  .transform((raw, ctx) => {
    const headers: Record<string, string> = {};
    for (const [rawName, rawValue] of Object.entries(raw)) {
      if (typeof rawValue !== 'string' || /[\r\n\0]/.test(rawValue) || rawValue.length > JOB_LIMITS.headerValueMaxLength) {
        ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.headerValue(rawName.trim()), path: [rawName] });
        continue;
      }
      const name = rawName.trim();
      const value = rawValue.trim();
      if (!name || !value) continue;
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.headerName(name), path: [rawName] });
      else if (FORBIDDEN_HEADERS.includes(name.toLowerCase()))
        ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.headerForbidden(name), path: [rawName] });
      else headers[name] = value;
    }
    if (Object.keys(headers).length > JOB_LIMITS.maxHeaders) ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.tooManyHeaders });
    return headers;
  });

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** Text as is; a JSON object or array (as the guides show) is stored as its JSON text. */
const bodySchema = z
  .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], { error: JOB_MESSAGES.body })
  .transform((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
  .refine((text) => utf8Bytes(text) <= JOB_LIMITS.bodyMaxBytes, JOB_MESSAGES.bodyTooLarge)
  .default('');

/**
 * Whitespace collapsed to single spaces; names such as MON are kept as the
 * user wrote them. A leading sixth field is the second. Null or absent: the
 * job has another schedule form (the definition then needs one).
 */
const cronSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value === null || value === undefined) return;
    const error = cronError(value, { seconds: true });
    if (error) ctx.addIssue({ code: 'custom', message: error });
  })
  .transform((value) => (typeof value === 'string' ? value.trim().split(/\s+/).join(' ') : null))
  .default(null);

/** An instant with its offset, stored and answered in UTC (toISOString). */
const instantSchema = (field: 'run_at' | 'starts_at' | 'ends_at') =>
  z
    .iso.datetime({ offset: true, error: JOB_MESSAGES.instant(field) })
    .transform((text) => new Date(text).toISOString())
    .nullable()
    .default(null);

const wholeSeconds = (message: string, min: number, max: number) => z.number({ error: message }).int(message).min(min, message).max(max, message);

/** An IANA zone name the runtime knows (see isTimeZone); UTC when omitted. */
const timeZoneSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (!isTimeZone(value)) ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.timeZone });
  })
  .transform((value) => value as string)
  .default(DEFAULT_TIME_ZONE);

/** A field only the server sets: accepted with the type the API answers it in, then dropped. */
const readOnly = (schema: z.ZodType) => schema.optional().transform((): undefined => undefined);
const readOnlyText = (field: JobReadOnlyField) => z.string({ error: JOB_MESSAGES.readOnly(field) });

/**
 * A job definition's fields, each with its own rules (jobDefinitionSchema adds
 * the rules between the schedule fields). Fields
 * the API does not know are refused rather than silently dropped; those a job
 * adds to its definition (id, status, times) are ignored, so any job the API
 * answers is accepted back unchanged.
 */
export const jobDefinitionFields = z
  .object(
    {
      name: nameSchema,
      url: urlSchema,
      method: methodSchema,
      headers: headersSchema,
      body: bodySchema,
      cron_expression: cronSchema,
      time_zone: timeZoneSchema,
      // Schedule forms, window, jitter and policies: see schedule.ts and docs/adr/0172-schedule-forms.md.
      every_seconds: wholeSeconds(JOB_MESSAGES.everySeconds, 1, SCHEDULE_LIMITS.maxEverySeconds).nullable().default(null),
      run_at: instantSchema('run_at'),
      starts_at: instantSchema('starts_at'),
      ends_at: instantSchema('ends_at'),
      jitter_seconds: wholeSeconds(JOB_MESSAGES.jitter, 0, SCHEDULE_LIMITS.maxJitterSeconds).default(0),
      overlap: z.enum(OVERLAP_POLICIES, { error: JOB_MESSAGES.overlap }).default('allow'),
      catch_up: z.enum(CATCH_UP_POLICIES, { error: JOB_MESSAGES.catchUp }).default('latest'),
      catch_up_window_seconds: wholeSeconds(JOB_MESSAGES.catchUpWindow, 1, SCHEDULE_LIMITS.maxCatchUpWindowSeconds).nullable().default(null),
      response_rules: responseRulesSchema,
      timeout_seconds: z
        .number({ error: JOB_MESSAGES.timeout })
        .int(JOB_MESSAGES.timeout)
        .min(RESPONSE_RULE_LIMITS.minTimeoutSeconds, JOB_MESSAGES.timeout)
        .max(JOB_TIMEOUT_CAP_SECONDS, JOB_MESSAGES.timeout)
        .nullable()
        .default(null),
      auto_pause_after: z.number({ error: JOB_MESSAGES.autoPause }).int(JOB_MESSAGES.autoPause).min(1, JOB_MESSAGES.autoPause).max(AUTO_PAUSE_MAX, JOB_MESSAGES.autoPause).nullable().default(null),
      alert_after_failures: z
        .number({ error: JOB_MESSAGES.alertAfterFailures })
        .int(JOB_MESSAGES.alertAfterFailures)
        .min(1, JOB_MESSAGES.alertAfterFailures)
        .max(ALERT_AFTER_MAX, JOB_MESSAGES.alertAfterFailures)
        .default(1),
      certificate_alert_days: z
        .number({ error: JOB_MESSAGES.certificateAlertDays })
        .int(JOB_MESSAGES.certificateAlertDays)
        .min(1, JOB_MESSAGES.certificateAlertDays)
        .max(CERTIFICATE_ALERT_DAYS_MAX, JOB_MESSAGES.certificateAlertDays)
        .nullable()
        .default(DEFAULT_CERTIFICATE_ALERT_DAYS),
      delivery: z.enum(DELIVERIES, { error: JOB_MESSAGES.delivery }).default(DEFAULT_DELIVERY),
      tags: tagsSchema,
      // Delivery policies (retry, signing, callbacks): see retry-policy.ts.
      retry: retryPolicySchema,
      identity_token: identityTokenSchema,
      callback_url: callbackUrlSchema,
      notify_on_failure: z.boolean({ error: JOB_MESSAGES.notifyOnFailure }).default(false),
      job_id: readOnly(readOnlyText('job_id')),
      status: readOnly(z.enum(JOB_STATUSES, { error: JOB_MESSAGES.readOnly('status') })),
      next_run_at: readOnly(readOnlyText('next_run_at').nullable()),
      last_run_at: readOnly(readOnlyText('last_run_at').nullable()),
      created_at: readOnly(readOnlyText('created_at')),
      updated_at: readOnly(readOnlyText('updated_at')),
      signing_secret: readOnly(readOnlyText('signing_secret')),
      certificate_expires_at: readOnly(readOnlyText('certificate_expires_at').nullable()),
    },
    { error: JOB_MESSAGES.notAnObject },
  )
  // Each unknown key fails on its own, so the 422 names it (z.never would report one keyless issue).
  .catchall(z.custom(() => false, { error: JOB_MESSAGES.unknownField }));

/**
 * The rules between a definition's schedule fields (each field's own rules
 * are in jobDefinitionFields): exactly one form, a window in order and not
 * around a one-off run, a catch-up window exactly when all_within asks for one.
 */
export function scheduleIssues(definition: {
  cron_expression: string | null;
  every_seconds: number | null;
  run_at: string | null;
  starts_at: string | null;
  ends_at: string | null;
  catch_up?: string;
  catch_up_window_seconds?: number | null;
}): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  const forms = (['cron_expression', 'every_seconds', 'run_at'] as const).filter((field) => definition[field] !== null);
  if (forms.length === 0) issues.push({ path: 'cron_expression', message: CRON_MESSAGES.required });
  for (const extra of forms.slice(1)) issues.push({ path: extra, message: JOB_MESSAGES.scheduleOne });
  if (definition.run_at !== null) {
    if (definition.starts_at !== null) issues.push({ path: 'starts_at', message: JOB_MESSAGES.windowWithRunAt });
    if (definition.ends_at !== null) issues.push({ path: 'ends_at', message: JOB_MESSAGES.windowWithRunAt });
  } else if (definition.starts_at !== null && definition.ends_at !== null && definition.ends_at <= definition.starts_at) {
    issues.push({ path: 'ends_at', message: JOB_MESSAGES.endsBeforeStart });
  }
  if (definition.catch_up === 'all_within' && definition.catch_up_window_seconds == null) issues.push({ path: 'catch_up_window_seconds', message: JOB_MESSAGES.catchUpWindow });
  if (definition.catch_up !== undefined && definition.catch_up !== 'all_within' && definition.catch_up_window_seconds != null) {
    issues.push({ path: 'catch_up_window_seconds', message: JOB_MESSAGES.catchUpWindowUnused });
  }
  return issues;
}

/**
 * A job definition for create and for update (PUT replaces the whole
 * definition, so omitted optional fields return to their defaults), its
 * schedule fields checked together.
 */
export const jobDefinitionSchema = jobDefinitionFields.superRefine(addScheduleIssues, { when: () => true });

/**
 * Adds scheduleIssues to a definition's issues. It runs even when fields
 * were refused (a definition missing both its URL and its schedule hears of
 * both), and then only says that a schedule is missing: the rules between
 * fields are for fields that are valid themselves.
 */
function addScheduleIssues(definition: Partial<Parameters<typeof scheduleIssues>[0]>, ctx: { issues: unknown[]; addIssue: (issue: { code: 'custom'; message: string; path: string[] }) => void }): void {
  // Not an object at all: its one issue says so.
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) return;
  const given = (value: unknown) => (value === undefined ? null : value);
  const issues = scheduleIssues({
    cron_expression: given(definition.cron_expression) as string | null,
    every_seconds: given(definition.every_seconds) as number | null,
    run_at: given(definition.run_at) as string | null,
    starts_at: given(definition.starts_at) as string | null,
    ends_at: given(definition.ends_at) as string | null,
    catch_up: definition.catch_up,
    catch_up_window_seconds: definition.catch_up_window_seconds,
  });
  const fieldsValid = ctx.issues.length === 0;
  for (const issue of issues) if (fieldsValid || issue.message === CRON_MESSAGES.required) ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.path] });
}

const SCHEDULE_PREVIEW_COUNT_MESSAGE = `count must be a whole number from 1 to ${SCHEDULE_LIMITS.previewMaxCount}`;

/** POST …/jobs/schedule-preview: a definition's schedule fields, the job's name (its jitter offset depends on it) and how many runs to show. */
export const schedulePreviewSchema = z
  .strictObject(
    {
      name: z.string({ error: JOB_MESSAGES.nameTooLong }).max(JOB_LIMITS.nameMaxLength, JOB_MESSAGES.nameTooLong).default(''),
      cron_expression: cronSchema,
      time_zone: timeZoneSchema,
      every_seconds: jobDefinitionFields.shape.every_seconds,
      run_at: jobDefinitionFields.shape.run_at,
      starts_at: jobDefinitionFields.shape.starts_at,
      ends_at: jobDefinitionFields.shape.ends_at,
      jitter_seconds: jobDefinitionFields.shape.jitter_seconds,
      count: wholeSeconds(SCHEDULE_PREVIEW_COUNT_MESSAGE, 1, SCHEDULE_LIMITS.previewMaxCount).default(SCHEDULE_LIMITS.previewDefaultCount),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : JOB_MESSAGES.notAnObject) },
  )
  .superRefine(addScheduleIssues, { when: () => true });

/** A definition after validation: trimmed, defaults filled in, ready to store. */
export type ValidJobDefinition = Required<Omit<JobDefinition, 'response_rules' | 'retry' | 'identity_token' | 'cron_expression' | 'every_seconds' | 'run_at' | 'starts_at' | 'ends_at' | 'catch_up_window_seconds'>> & {
  cron_expression: string | null;
  every_seconds: number | null;
  run_at: string | null;
  starts_at: string | null;
  ends_at: string | null;
  catch_up_window_seconds: number | null;
  response_rules: ResponseRules | null;
  retry: RetryPolicy;
  identity_token: IdentityToken | null;
};

/** The job form's non-blocking notice for plain-HTTP targets. */
export function urlWarning(url: string): string | null {
  return /^http:\/\//i.test(url.trim()) ? JOB_MESSAGES.httpWarning : null;
}

export const jobLogsQuerySchema = z.strictObject(
  {
    limit: z.coerce
      .number({ error: `limit must be a whole number from 1 to ${JOB_LOGS_LIMITS.max}` })
      .int(`limit must be a whole number from 1 to ${JOB_LOGS_LIMITS.max}`)
      .min(1, `limit must be a whole number from 1 to ${JOB_LOGS_LIMITS.max}`)
      .max(JOB_LOGS_LIMITS.max, `limit must be a whole number from 1 to ${JOB_LOGS_LIMITS.max}`)
      .default(JOB_LOGS_LIMITS.default),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown query parameter: ${issue.keys.join(', ')}` : undefined) },
);
