import { z } from 'zod';
import type { ResponseRules } from './job-types';

export type { ResponseRules };

export const RESPONSE_RULE_LIMITS = { bodyContainsMaxLength: 1000, jsonPathMaxLength: 200, minTimeoutSeconds: 1 } as const;

export const RESPONSE_RULE_MESSAGES = {
  rules: 'response_rules must be an object with expected_status, body_contains, json_path and json_equals',
  expectedStatus: 'expected_status must list status codes or ranges from 100 to 599, e.g. "200-299, 304"',
  bodyContains: `body_contains must be text of 1 to ${RESPONSE_RULE_LIMITS.bodyContainsMaxLength} characters`,
  jsonPath: 'json_path must be a path such as $.status or $.items[0].ok',
  jsonEquals: 'json_equals must be text, a number, true, false or null',
  jsonPair: 'json_path and json_equals go together: give both or neither',
  timeout: (max: number) => `timeout_seconds must be a whole number from ${RESPONSE_RULE_LIMITS.minTimeoutSeconds} to ${max}`,
} as const;

type StatusRange = readonly [number, number];

/** Parses "200-299, 304" into ranges; null when any part is not a code or range from 100 to 599. */
export function parseStatusList(text: string): StatusRange[] | null {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.length > 20) return null;
  const ranges: StatusRange[] = [];
  for (const part of parts) {
    const match = /^(\d{3})(?:\s*-\s*(\d{3}))?$/.exec(part);
    if (!match) return null;
    const low = Number(match[1]);
    const high = Number(match[2] ?? match[1]);
    if (low < 100 || high > 599 || low > high) return null;
    ranges.push([low, high]);
  }
  return ranges;
}

/** Parses "$.a.b[0]['c d']" into its keys and indexes; null when it is not such a path. */
export function parseJsonPath(text: string): Array<string | number> | null {
  let rest = text.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const segments: Array<string | number> = [];
  const step = /^(?:\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\])/;
  if (rest && !rest.startsWith('.') && !rest.startsWith('[')) rest = `.${rest}`;
  while (rest) {
    const match = step.exec(rest);
    if (!match) return null;
    segments.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (match[3] ?? match[4])!));
    rest = rest.slice(match[0].length);
  }
  return segments.length > 0 ? segments : null;
}

// JSON text may say -0, which the database stores and answers as 0 (and which equals 0 when compared):
// the definition holds 0 from the start, so what a client reads back is what was validated.
const jsonNumber = z.number().transform((n) => (Object.is(n, -0) ? 0 : n));
const jsonValue = z.union([z.string(), jsonNumber, z.boolean(), z.null()], { error: RESPONSE_RULE_MESSAGES.jsonEquals });

/** The rules as a client sends them; omitted rules are off and expected_status defaults to 2xx. */
export const responseRulesSchema = z
  .strictObject(
    {
      expected_status: z
        .string({ error: RESPONSE_RULE_MESSAGES.expectedStatus })
        .trim()
        .refine((text) => parseStatusList(text) !== null, RESPONSE_RULE_MESSAGES.expectedStatus)
        .default('200-299'),
      body_contains: z
        .string({ error: RESPONSE_RULE_MESSAGES.bodyContains })
        .min(1, RESPONSE_RULE_MESSAGES.bodyContains)
        .max(RESPONSE_RULE_LIMITS.bodyContainsMaxLength, RESPONSE_RULE_MESSAGES.bodyContains)
        .nullable()
        .default(null),
      json_path: z
        .string({ error: RESPONSE_RULE_MESSAGES.jsonPath })
        .max(RESPONSE_RULE_LIMITS.jsonPathMaxLength, RESPONSE_RULE_MESSAGES.jsonPath)
        .refine((text) => parseJsonPath(text) !== null, RESPONSE_RULE_MESSAGES.jsonPath)
        .nullable()
        .default(null),
      json_equals: jsonValue.optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : RESPONSE_RULE_MESSAGES.rules) },
  )
  .superRefine((rules, ctx) => {
    // Without a path, json_equals null means "no value" (the API answers rules without a JSON rule that way, and must take them back);
    // with a path, null is the JSON value the path must hold, and an omitted json_equals is the missing half of the pair.
    const paired = rules.json_path === null ? rules.json_equals === undefined || rules.json_equals === null : rules.json_equals !== undefined;
    if (!paired) ctx.addIssue({ code: 'custom', message: RESPONSE_RULE_MESSAGES.jsonPair, path: ['json_path'] });
  })
  .transform((rules): ResponseRules => ({ ...rules, json_equals: rules.json_equals ?? null }))
  .nullable()
  .default(null);

/** The rules ready to apply to each response, parsed once before the due instant. */
export interface ResponseCheck {
  statuses: StatusRange[];
  expectedStatus: string;
  bodyContains: string | null;
  jsonPath: Array<string | number> | null;
  jsonPathText: string | null;
  jsonEquals: string | number | boolean | null;
}

export function compileResponseRules(rules: ResponseRules): ResponseCheck {
  return {
    statuses: parseStatusList(rules.expected_status) ?? [[200, 299]],
    expectedStatus: rules.expected_status,
    bodyContains: rules.body_contains,
    jsonPath: rules.json_path ? parseJsonPath(rules.json_path) : null,
    jsonPathText: rules.json_path,
    jsonEquals: rules.json_equals,
  };
}

const show = (value: unknown) => JSON.stringify(value) ?? 'undefined';

/**
 * The first rule the response breaks, as the run's error message naming the
 * rule, or null when every rule holds. The body is the start the executor
 * keeps of each response, so body rules look at that part only.
 */
export function responseRuleFailure(check: ResponseCheck, status: number, body: string | null): string | null {
  if (!check.statuses.some(([low, high]) => status >= low && status <= high)) {
    return `Response rule failed: status ${status} is not one of the expected ${check.expectedStatus}`;
  }
  if (check.bodyContains !== null && !(body ?? '').includes(check.bodyContains)) {
    return `Response rule failed: body does not contain ${show(check.bodyContains)}`;
  }
  if (check.jsonPath) {
    let value: unknown;
    try {
      value = JSON.parse(body ?? '');
    } catch {
      return `Response rule failed: ${check.jsonPathText} cannot be read: the body is not JSON`;
    }
    for (const segment of check.jsonPath) {
      if (value === null || typeof value !== 'object' || !(segment in (value as object))) {
        return `Response rule failed: ${check.jsonPathText} is not in the response`;
      }
      value = (value as Record<string | number, unknown>)[segment];
    }
    if (value !== check.jsonEquals) return `Response rule failed: ${check.jsonPathText} is ${show(value)}, expected ${show(check.jsonEquals)}`;
  }
  return null;
}
