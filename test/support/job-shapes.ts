import fc from 'fast-check';
import { FORBIDDEN_HEADERS } from '@cronbeam/shared/jobs/job-rules';
import { DELIVERIES, HTTP_METHODS, RETRY_OUTCOMES, type JobDefinition, type ResponseRules, type RetryPolicy } from '@cronbeam/shared/jobs/job-types';

/**
 * Valid job definitions in every shape a client may send: optional fields
 * left out or given, methods in any case, headers and bodies with spaces the
 * API trims, JSON bodies, every combination of response rules (including
 * explicit nulls and a JSON path that must hold null). `name` is left to the
 * caller, which knows what is unique where it creates jobs.
 */
const tokenChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'.split(''));
const token = (maxLength: number) => fc.string({ unit: tokenChar, minLength: 1, maxLength });

// `__proto__` is a valid token, but the API refuses it as a key of any JSON object it is sent (422, never stored): not a job it answers.
const objectKey = (maxLength: number) => token(maxLength).filter((key) => key !== '__proto__');
// Authorization is left out: with an identity token the API refuses it (a definition it does not store).
const headerName = objectKey(20).filter((name) => !FORBIDDEN_HEADERS.includes(name.toLowerCase()) && name.toLowerCase() !== 'authorization');
const headerValue = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }).filter((value) => value.trim().length > 0);
const spaced = (text: fc.Arbitrary<string>) => fc.tuple(fc.constantFrom('', ' ', '  '), text, fc.constantFrom('', ' ')).map(([a, t, b]) => `${a}${t}${b}`);

const method = fc.constantFrom(...HTTP_METHODS).chain((m) => fc.constantFrom(m, m.toLowerCase(), `${m[0]}${m.slice(1).toLowerCase()}`));

const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.dictionary(objectKey(10), fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 }),
);

const cronExpression = fc.constantFrom('*/5 * * * *', '0 9 * * 1-5', '30  2 * * *', '0 0 1 1 *', '15,45 8-18 * * MON-FRI', '0 12 1 JAN,JUL *', ' 0 3 * * SUN ');

const timeZone = fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe');

/** Tags as a client may write them: any case, spaces around, repeated; the API answers them lower-case, each once. */
const tagChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:'.split(''));
const tag = fc.tuple(fc.constantFrom(...'abcXYZ019'.split('')), fc.string({ unit: tagChar, maxLength: 20 })).map(([first, rest]) => `${first}${rest}`);
const tags = fc.array(spaced(tag), { maxLength: 10 });

const statusList = fc.constantFrom('200-299', '200', '200-299, 304', '100-599', '200,201 , 204', '404');
const jsonPath = fc.constantFrom('$.status', 'status', '$.items[0].ok', "$['a b'].c", '$.checks[2]');
const jsonValue = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));

/** Each rule left out, given, or (where the API answers it so) null; json_path and json_equals given together or not at all. */
const responseRules = fc
  .record(
    {
      expected_status: statusList,
      body_contains: fc.oneof(fc.string({ minLength: 1, maxLength: 50 }), fc.constant(null)),
      json: fc.oneof(fc.constant(null), fc.record({ json_path: jsonPath, json_equals: jsonValue })),
    },
    { requiredKeys: [] },
  )
  .map(({ json, ...rules }) => (json ? { ...rules, ...json } : json === null ? { ...rules, json_path: null } : rules));

/**
 * A retry policy with each field left out or given: outcomes and 4xx statuses
 * in any order and repeated (the API keeps them sorted, once), the maximum
 * wait never below the initial one.
 */
const retryPolicy: fc.Arbitrary<Partial<RetryPolicy>> = fc
  .record(
    {
      attempts: fc.integer({ min: 0, max: 10 }),
      initial_backoff_seconds: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 3600 })),
      extra_backoff_seconds: fc.integer({ min: 0, max: 80_000 }),
      retry_on: fc.array(fc.constantFrom(...RETRY_OUTCOMES), { maxLength: 6 }),
      retry_on_status: fc.array(fc.integer({ min: 400, max: 499 }), { maxLength: 6 }),
    },
    { requiredKeys: [] },
  )
  .map(({ extra_backoff_seconds, ...policy }) =>
    extra_backoff_seconds === undefined ? policy : { ...policy, max_backoff_seconds: (policy.initial_backoff_seconds ?? 1) + extra_backoff_seconds },
  );

/** An instant some days ahead, as a client writes it (Z or an offset), whole seconds. */
const futureInstant = fc
  .tuple(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 86_399 }), fc.constantFrom('Z', '+02:00', '-05:30'))
  .map(([days, seconds, zone]) => {
    const at = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 1) + days * 86_400_000 + seconds * 1000);
    const iso = at.toISOString().replace('.000Z', 'Z');
    if (zone === 'Z') return iso;
    const sign = zone[0] === '+' ? 1 : -1;
    const [h, m] = zone.slice(1).split(':').map(Number);
    return new Date(at.getTime() + sign * (h * 60 + m) * 60_000).toISOString().replace('.000Z', zone);
  });

/** A window around a recurring schedule: either bound left out, given or null; the end after the start. */
const scheduleWindow = fc
  .record({ starts_at: fc.oneof(fc.constant(null), futureInstant), ends_at: fc.oneof(fc.constant(null), futureInstant) }, { requiredKeys: [] })
  .map((window) => (window.starts_at && window.ends_at && window.ends_at <= window.starts_at ? { starts_at: window.starts_at } : window));

/**
 * Each schedule form: a cron expression, an interval of seconds or one
 * instant; the other forms left out or null, a window around the recurring
 * ones, and the catch-up policy with its window exactly when all_within asks.
 */
const schedule = fc.oneof(
  fc.tuple(cronExpression, scheduleWindow).map(([cron_expression, window]) => ({ cron_expression, ...window })),
  fc
    .tuple(fc.integer({ min: 1, max: 30 * 86_400 }), scheduleWindow, fc.boolean())
    .map(([every_seconds, window, explicitNull]) => ({ ...(explicitNull ? { cron_expression: null, run_at: null } : {}), every_seconds, ...window })),
  fc.tuple(futureInstant, fc.boolean()).map(([run_at, explicitNull]) => ({ ...(explicitNull ? { cron_expression: null, every_seconds: null } : {}), run_at })),
);
const schedulePolicies = fc
  .record(
    {
      jitter_seconds: fc.integer({ min: 0, max: 3_600 }),
      overlap: fc.constantFrom('allow', 'skip'),
      catch_up: fc.oneof(fc.constantFrom('latest', 'none'), fc.integer({ min: 1, max: 7 * 86_400 })),
    },
    { requiredKeys: [] },
  )
  .map(({ catch_up, ...policies }) =>
    typeof catch_up === 'number' ? { ...policies, catch_up: 'all_within', catch_up_window_seconds: catch_up } : catch_up === undefined ? policies : { ...policies, catch_up },
  );

/** A definition as a client may send it: the method in any case, the body text or a JSON object. */
export type SentDefinition = Omit<JobDefinition, 'name' | 'method' | 'body'> & { method?: string; body?: string | Record<string, unknown> };

const definitionFields = fc.record(
  {
    url: fc.tuple(fc.constantFrom('https', 'http'), token(20), fc.constantFrom('', '?a=1&b=two')).map(([scheme, path, query]) => `${scheme}://example.com/${path}${query}`),
    method,
    headers: fc.dictionary(spaced(headerName), spaced(headerValue), { maxKeys: 4 }),
    body,
    time_zone: timeZone,
    response_rules: fc.oneof(fc.constant(null), responseRules),
    timeout_seconds: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 10 })),
    auto_pause_after: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 1000 })),
    delivery: fc.constantFrom(...DELIVERIES),
    tags,
    retry: retryPolicy,
    identity_token: fc.oneof(fc.constant(null), fc.constant({}), fc.record({ audience: fc.oneof(fc.constant(null), token(30).map((t) => `https://${t}.example`)) })),
    callback_url: fc.oneof(fc.constant(null), token(20).map((t) => `https://hooks.example.com/${t}`)),
    notify_on_failure: fc.boolean(),
    alert_after_failures: fc.integer({ min: 1, max: 1000 }),
    certificate_alert_days: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 365 })),
  },
  { requiredKeys: ['url'] },
);

/** A definition without its name: its fields, one schedule form and the schedule's policies. */
export const jobDefinitionWithoutName: fc.Arbitrary<SentDefinition> = fc
  .tuple(definitionFields, schedule, schedulePolicies)
  .map(([fields, form, policies]) => ({ ...fields, ...form, ...policies }) as SentDefinition);

const stored = (rules: Partial<ResponseRules>): ResponseRules => ({ expected_status: '200-299', body_contains: null, json_path: null, json_equals: null, ...rules });

/** Each shape of response rules a client may send, with the rules the API stores and answers for it. */
export const RESPONSE_RULE_SHAPES: ReadonlyArray<[shape: string, sent: Partial<ResponseRules> | null, answered: ResponseRules | null]> = [
  ['body_contains only', { body_contains: 'ok' }, stored({ body_contains: 'ok' })],
  ['expected_status only', { expected_status: '200-299, 304' }, stored({ expected_status: '200-299, 304' })],
  ['json_path with json_equals', { json_path: '$.status', json_equals: 'ok' }, stored({ json_path: '$.status', json_equals: 'ok' })],
  ['json_path that must hold null', { json_path: '$.error', json_equals: null }, stored({ json_path: '$.error', json_equals: null })],
  ['expected_status and body_contains', { expected_status: '200', body_contains: 'done' }, stored({ expected_status: '200', body_contains: 'done' })],
  [
    'every rule',
    { expected_status: '200-299, 304', body_contains: 'done', json_path: '$.checks[0].ok', json_equals: true },
    { expected_status: '200-299, 304', body_contains: 'done', json_path: '$.checks[0].ok', json_equals: true },
  ],
  ['an empty object (the default status only)', {}, stored({})],
  ['none (null)', null, null],
];
