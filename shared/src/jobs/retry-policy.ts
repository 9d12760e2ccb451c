import { z } from 'zod';
import { RETRY_OUTCOMES, type RetryOutcome, type RetryPolicy } from './job-types';

/**
 * A job's retry policy: how many times a failed scheduled run is tried again,
 * how long it waits in between, and which failures are worth another try.
 * The plan default (3 retries of timeouts, network errors and 5xx answers,
 * waits doubling from the server's base) is what every job had before.
 */
export { RETRY_OUTCOMES, type RetryOutcome, type RetryPolicy };

export const RETRY_LIMITS = {
  maxAttempts: 10,
  defaultAttempts: 3,
  minBackoffSeconds: 1,
  maxInitialBackoffSeconds: 3_600,
  maxBackoffSeconds: 86_400,
  defaultMaxBackoffSeconds: 3_600,
  maxStatuses: 20,
} as const;

export const DEFAULT_RETRY_ON: readonly RetryOutcome[] = ['timeout', 'network', '5xx'];

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: RETRY_LIMITS.defaultAttempts,
  initial_backoff_seconds: null,
  max_backoff_seconds: RETRY_LIMITS.defaultMaxBackoffSeconds,
  retry_on: [...DEFAULT_RETRY_ON],
  retry_on_status: [],
};

export const RETRY_MESSAGES = {
  retry: 'retry must be an object with attempts, initial_backoff_seconds, max_backoff_seconds, retry_on and retry_on_status',
  attempts: `retry.attempts must be a whole number from 0 to ${RETRY_LIMITS.maxAttempts}`,
  initialBackoff: `retry.initial_backoff_seconds must be a whole number from ${RETRY_LIMITS.minBackoffSeconds} to ${RETRY_LIMITS.maxInitialBackoffSeconds} or null`,
  maxBackoff: `retry.max_backoff_seconds must be a whole number from ${RETRY_LIMITS.minBackoffSeconds} to ${RETRY_LIMITS.maxBackoffSeconds}`,
  backoffOrder: 'retry.max_backoff_seconds must not be below retry.initial_backoff_seconds',
  retryOn: `retry.retry_on must list some of: ${RETRY_OUTCOMES.join(', ')}`,
  retryOnStatus: `retry.retry_on_status must list up to ${RETRY_LIMITS.maxStatuses} different 4xx status codes (400-499)`,
} as const;

const whole = (message: string, min: number, max: number) => z.number({ error: message }).int(message).min(min, message).max(max, message);

/** The policy as a client sends it; omitted fields take the plan default. Lists are kept sorted and without repeats, so GET answers what PUT stored. */
export const retryPolicySchema = z
  .strictObject(
    {
      attempts: whole(RETRY_MESSAGES.attempts, 0, RETRY_LIMITS.maxAttempts).default(RETRY_LIMITS.defaultAttempts),
      initial_backoff_seconds: whole(RETRY_MESSAGES.initialBackoff, RETRY_LIMITS.minBackoffSeconds, RETRY_LIMITS.maxInitialBackoffSeconds).nullable().default(null),
      max_backoff_seconds: whole(RETRY_MESSAGES.maxBackoff, RETRY_LIMITS.minBackoffSeconds, RETRY_LIMITS.maxBackoffSeconds).default(RETRY_LIMITS.defaultMaxBackoffSeconds),
      retry_on: z
        .array(z.enum(RETRY_OUTCOMES, { error: RETRY_MESSAGES.retryOn }), { error: RETRY_MESSAGES.retryOn })
        .max(RETRY_OUTCOMES.length * 4, RETRY_MESSAGES.retryOn)
        .transform((list) => RETRY_OUTCOMES.filter((o) => list.includes(o)))
        .default([...DEFAULT_RETRY_ON]),
      retry_on_status: z
        .array(whole(RETRY_MESSAGES.retryOnStatus, 400, 499), { error: RETRY_MESSAGES.retryOnStatus })
        .max(RETRY_LIMITS.maxStatuses, RETRY_MESSAGES.retryOnStatus)
        .transform((list) => [...new Set(list)].sort((a, b) => a - b))
        .default([]),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : RETRY_MESSAGES.retry) },
  )
  .superRefine((policy, ctx) => {
    if (policy.initial_backoff_seconds !== null && policy.max_backoff_seconds < policy.initial_backoff_seconds) {
      ctx.addIssue({ code: 'custom', message: RETRY_MESSAGES.backoffOrder, path: ['max_backoff_seconds'] });
    }
  })
  .default({ ...DEFAULT_RETRY_POLICY, retry_on: [...DEFAULT_RETRY_ON] });

/** How a failed attempt failed, as far as retrying is concerned. */
export type FailureKind = 'timeout' | 'network' | 'status' | 'final';

/** Whether the policy retries a failure of this kind (and, for an HTTP answer, this status). */
export function policyRetries(policy: RetryPolicy, kind: FailureKind, status: number | null): boolean {
  if (kind === 'timeout' || kind === 'network') return policy.retry_on.includes(kind);
  if (kind !== 'status' || status === null) return false;
  if (status >= 500) return policy.retry_on.includes('5xx');
  if (status === 429) return policy.retry_on.includes('429') || policy.retry_on_status.includes(429);
  return policy.retry_on_status.includes(status);
}

/**
 * The wait before retry number `retry` (1-based): the initial wait doubled
 * for each retry before it, or what the target asked for in Retry-After;
 * never above the policy's maximum.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, baseMs: number, retryAfterMs: number | null): number {
  const maxMs = policy.max_backoff_seconds * 1000;
  if (retryAfterMs !== null) return Math.min(Math.max(0, retryAfterMs), maxMs);
  const initialMs = policy.initial_backoff_seconds === null ? baseMs : policy.initial_backoff_seconds * 1000;
  return Math.min(initialMs * 2 ** Math.min(retry - 1, 30), maxMs);
}

/** A Retry-After header's wait in ms (delta-seconds or an HTTP date), or null when absent or not one of those. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  if (text.length > 64) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
