import { z } from 'zod';
import { CRON_MESSAGES } from '@cronbeam/shared/cron/cron-messages';
import { JOB_LIMITS, jobDefinitionSchema } from '@cronbeam/shared/jobs/job-rules';
import { DELIVERIES, HTTP_METHODS, JOB_STATUSES, type Job, type JobLogEntry, type ResponseRules } from '@cronbeam/shared/jobs/job-types';
import { RESPONSE_RULE_MESSAGES } from '@cronbeam/shared/jobs/response-rules';
import { TAG_LIMITS } from '@cronbeam/shared/tags/tags';
import { RETRY_OUTCOMES } from '@cronbeam/shared/jobs/retry-policy';
import { CATCH_UP_POLICIES, OVERLAP_POLICIES, SCHEDULE_LIMITS } from '@cronbeam/shared/jobs/schedule';

/**
 * Tool arguments built from the shared job rules, so an assistant is held to
 * the same limits and sees the same messages as the API and the job form.
 * Only descriptions are added here; the rules themselves live in shared/.
 */
const rules = jobDefinitionSchema.shape;

export const jobReference = z
  .string()
  .trim()
  .min(1, 'job is required: give the job id or its name')
  .describe('The job: its job_id (from list_jobs) or its exact name (names are unique per account, ignoring case).');

const descriptions = {
  name: `Unique name of the job in this account (case-insensitive): letters, digits, '-' and '_', at most ${JOB_LIMITS.nameMaxLength} characters.`,
  url: `The http:// or https:// URL Cronbeam calls (at most ${JOB_LIMITS.urlMaxLength} characters). Public hosts only; prefer https.`,
  method: `HTTP method, one of ${HTTP_METHODS.join(', ')}. Default GET.`,
  headers: `Request headers as an object of name to text value (at most ${JOB_LIMITS.maxHeaders}); hop-by-hop headers such as Host or Content-Length are refused.`,
  body: `Request body: text, or a JSON object/array (sent as its JSON text), at most ${JOB_LIMITS.bodyMaxBytes / 1024} KiB. Default empty.`,
  cron_expression:
    'Standard 5-field cron schedule, read in time_zone (UTC by default): minute hour day-of-month month day-of-week (0-6, Sunday is 0; names like MON and JAN allowed), or 6 fields with a leading second. Example: "*/15 * * * *" every 15 minutes, "0 9 * * 1-5" 09:00 UTC on weekdays, "*/10 * * * * *" every 10 seconds. Give exactly one of cron_expression, every_seconds and run_at.',
  every_seconds: `Run every this many seconds instead of on a cron expression (1 to ${SCHEDULE_LIMITS.maxEverySeconds}, at least the plan's shortest interval: free 60, basic 10, pro 1), counted from starts_at or the creation second.`,
  run_at: 'Run once at this instant (ISO 8601 with its offset, e.g. "2026-12-01T09:00:00Z"), instead of a recurring schedule; must be in the future. Afterwards the job keeps its outcome as status and has no next run.',
  starts_at: 'No run before this ISO 8601 instant (cron and interval schedules; an interval counts from it). null: from now.',
  ends_at: 'No run after this ISO 8601 instant (cron and interval schedules). null: no end.',
  jitter_seconds: `Shift every run by a fixed per-job offset within this many seconds (0 to ${SCHEDULE_LIMITS.maxJitterSeconds}; default 0), so that many jobs on one schedule do not hit a target at once. The offset depends on the job's name.`,
  overlap: 'allow (default): a run is sent even while the previous run of the job is in flight; skip: that run is recorded as skipped instead.',
  catch_up: 'After an outage or a pause: latest (default) fires the latest missed run after an outage; none fires nothing missed; all_within fires every missed run within catch_up_window_seconds.',
  catch_up_window_seconds: `With catch_up all_within (and only then): how far back, in seconds (1 to ${SCHEDULE_LIMITS.maxCatchUpWindowSeconds}), missed runs still fire.`,
  notify_on_failure: 'Email the account owner when an execution fails after its retries. Default false.',
  time_zone:
    'IANA time zone the schedule is read in, e.g. "Europe/Berlin". Default UTC. A local time skipped by a daylight-saving change fires once, shifted; one shown twice fires once.',
  response_rules:
    'What counts as a successful run (null: any 2xx status): expected_status lists codes and ranges ("200-299, 304"; default "200-299"), body_contains is text the body must contain, json_path ("$.status") with json_equals (a text, number, boolean or null) checks a JSON value. A failed run names the rule that failed.',
  timeout_seconds: "Seconds a run may take before it fails (at least 1, at most the server's maximum); null uses the server's execution timeout.",
  auto_pause_after: 'Pause the job (with an alert) after this many failed runs in a row; null (default) never pauses it.',
  callback_url:
    "An http(s) URL that receives each completed run's outcome (POST, JSON: status, response_code, duration_ms, attempt, a truncated response_body), signed with the job's signing secret; once per run, after its retries. null (default): none.",
  tags: `Labels to group jobs by (at most ${TAG_LIMITS.maxPerItem}, each up to ${TAG_LIMITS.maxLength} letters, digits, - _ . or :, stored lower-case), e.g. ["prod", "billing"]. Default none.`,
} as const;

/**
 * The response rules as the assistant sees them: each field described, and
 * json_equals as four described alternatives (anyOf) rather than a list of
 * types, which some clients refuse. The shared rule checks them after this
 * (limits, the status list, the JSON path and the pair rule).
 */
const responseRulesFields = z
  .strictObject(
    {
      expected_status: z
        .string({ error: RESPONSE_RULE_MESSAGES.expectedStatus })
        .optional()
        .describe('Status codes and ranges from 100 to 599 that count as success, e.g. "200-299, 304". Default "200-299".'),
      body_contains: z
        .string({ error: RESPONSE_RULE_MESSAGES.bodyContains })
        .describe('Text the response body must contain (case-sensitive).')
        .nullable()
        .optional()
        .describe('Text the response body must contain (case-sensitive); null or left out: no body rule.'),
      json_path: z
        .string({ error: RESPONSE_RULE_MESSAGES.jsonPath })
        .describe('A path such as $.status or $.items[0].ok.')
        .nullable()
        .optional()
        .describe('Path into a JSON body, e.g. $.status or $.items[0].ok; goes with json_equals. Null or left out: no JSON rule.'),
      json_equals: z
        .union([z.string().describe('Text to equal.'), z.number().describe('A number to equal.'), z.boolean().describe('true or false.'), z.null().describe('JSON null.')], { error: RESPONSE_RULE_MESSAGES.jsonEquals })
        .optional()
        .describe('The value json_path must hold: text, a number, true, false or null. Without json_path: null or left out.'),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : RESPONSE_RULE_MESSAGES.rules) },
  )
  .describe('The rules a response must meet.')
  .nullable();
const responseRulesInput = responseRulesFields.pipe(rules.response_rules.unwrap() as unknown as z.ZodType<ResponseRules | null, z.output<typeof responseRulesFields>>);

/** A cron expression: typed as text for the assistant, checked by the shared cron rules. */
export const cronExpression = z
  .string({ error: CRON_MESSAGES.required })
  // The shared rule accepts unknown input (it reports non-text itself); here its input is already text.
  .pipe(rules.cron_expression as unknown as z.ZodType<string, string>)
  .describe(descriptions.cron_expression);

/** An instant as text, checked by the shared rule (ISO 8601 with its offset). */
const instant = (field: 'run_at' | 'starts_at' | 'ends_at') =>
  // Two described alternatives (anyOf), not a list of types, which some clients refuse.
  z
    .union([z.string().pipe(rules[field].unwrap().unwrap() as unknown as z.ZodType<string, string>).describe('An ISO 8601 instant with its offset.'), z.null().describe('None.')])
    .describe(descriptions[field]);

/** The schedule fields beside cron_expression, as create_job takes them (each optional; the API checks that one form is given). */
const scheduleFields = {
  every_seconds: rules.every_seconds.unwrap().optional().describe(descriptions.every_seconds),
  run_at: instant('run_at').optional(),
  starts_at: instant('starts_at').optional(),
  ends_at: instant('ends_at').optional(),
  jitter_seconds: rules.jitter_seconds.unwrap().optional().describe(descriptions.jitter_seconds),
  overlap: z.enum(OVERLAP_POLICIES).optional().describe(descriptions.overlap),
  catch_up: z.enum(CATCH_UP_POLICIES).optional().describe(descriptions.catch_up),
  catch_up_window_seconds: rules.catch_up_window_seconds.unwrap().optional().describe(descriptions.catch_up_window_seconds),
};

/** Every field of a new job definition (defaults as the API applies them). */
export const jobDefinitionFields = {
  name: rules.name.describe(descriptions.name),
  url: rules.url.describe(descriptions.url),
  method: rules.method.meta({ description: descriptions.method, enum: [...HTTP_METHODS] }),
  headers: rules.headers.describe(descriptions.headers),
  body: rules.body.describe(descriptions.body),
  cron_expression: cronExpression.optional(),
  ...scheduleFields,
  time_zone: z.string().default('UTC').pipe(rules.time_zone as unknown as z.ZodType<string, string>).describe(descriptions.time_zone),
  response_rules: responseRulesInput.default(null).describe(descriptions.response_rules),
  timeout_seconds: rules.timeout_seconds.describe(descriptions.timeout_seconds),
  auto_pause_after: rules.auto_pause_after.describe(descriptions.auto_pause_after),
  tags: rules.tags.describe(descriptions.tags),
  callback_url: rules.callback_url.describe(descriptions.callback_url),
  notify_on_failure: rules.notify_on_failure.describe(descriptions.notify_on_failure),
};

/**
 * The same fields without defaults, all optional: an update changes only what
 * it names. zod applies an inner default even under .optional(), so each
 * default is unwrapped (headers: the default sits inside its pipe).
 */
export const jobChangeFields = {
  name: rules.name.optional().describe(`New name. ${descriptions.name}`),
  url: rules.url.optional().describe(descriptions.url),
  method: rules.method.unwrap().optional().meta({ description: descriptions.method, enum: [...HTTP_METHODS] }),
  headers: z.pipe(rules.headers.in.unwrap(), rules.headers.out).optional().describe(`Replaces all headers. ${descriptions.headers}`),
  body: rules.body.unwrap().optional().describe(descriptions.body),
  cron_expression: cronExpression.optional(),
  ...scheduleFields,
  time_zone: z.string().pipe(rules.time_zone as unknown as z.ZodType<string, string>).optional().describe(descriptions.time_zone),
  response_rules: responseRulesInput.optional().describe(`Replaces all response rules; null turns them off. ${descriptions.response_rules}`),
  timeout_seconds: rules.timeout_seconds.unwrap().optional().describe(descriptions.timeout_seconds),
  auto_pause_after: rules.auto_pause_after.unwrap().optional().describe(descriptions.auto_pause_after),
  tags: rules.tags.unwrap().optional().describe(`Replaces all tags. ${descriptions.tags}`),
  callback_url: rules.callback_url.unwrap().optional().describe(`null turns callbacks off. ${descriptions.callback_url}`),
  notify_on_failure: rules.notify_on_failure.unwrap().optional().describe(descriptions.notify_on_failure),
};

/** A job as the API answers it (typed against the shared interface, so a renamed field does not compile). */
export const jobOutput = z.object({
  job_id: z.string(),
  name: z.string(),
  url: z.string(),
  method: z.enum(HTTP_METHODS),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  cron_expression: z.string().nullable(),
  time_zone: z.string(),
  every_seconds: z.number().int().nullable(),
  run_at: z.string().nullable(),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  jitter_seconds: z.number().int(),
  overlap: z.enum(OVERLAP_POLICIES),
  catch_up: z.enum(CATCH_UP_POLICIES),
  catch_up_window_seconds: z.number().int().nullable(),
  response_rules: z
    .object({ expected_status: z.string(), body_contains: z.string().nullable(), json_path: z.string().nullable(), json_equals: z.union([z.string(), z.number(), z.boolean(), z.null()]) })
    .nullable(),
  timeout_seconds: z.number().nullable(),
  auto_pause_after: z.number().int().nullable(),
  alert_after_failures: z.number().int(),
  // Servers before certificate alerts do not send these.
  certificate_alert_days: z.number().int().nullable().default(14),
  certificate_expires_at: z.string().nullable().default(null),
  delivery: z.enum(DELIVERIES),
  tags: z.array(z.string()),
  retry: z.object({
    attempts: z.number().int(),
    initial_backoff_seconds: z.number().int().nullable(),
    max_backoff_seconds: z.number().int(),
    retry_on: z.array(z.enum(RETRY_OUTCOMES)),
    retry_on_status: z.array(z.number().int()),
  }),
  identity_token: z.object({ audience: z.string().nullable() }).nullable(),
  callback_url: z.string().nullable(),
  signing_secret: z.string().optional(),
  status: z.enum(JOB_STATUSES),
  notify_on_failure: z.boolean(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}) satisfies z.ZodType<Job>;

export const logEntryOutput = z.object({
  run_id: z.string(),
  executed_at: z.string().nullable(),
  scheduled_for: z.string(),
  attempt: z.number(),
  trigger: z.enum(['schedule', 'retry', 'manual', 'recovery']),
  status: z.enum(['success', 'failed', 'skipped', 'missed']),
  response_code: z.number().nullable(),
  duration_ms: z.number().nullable(),
  error_message: z.string().nullable(),
  response_body: z.string().nullable(),
  possible_duplicate: z.boolean(),
  // Servers before maintenance windows do not send it.
  alert_note: z.string().nullable().default(null),
}) satisfies z.ZodType<JobLogEntry>;
