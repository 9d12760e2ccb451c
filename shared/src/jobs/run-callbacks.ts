import { z } from 'zod';
import { JOB_LIMITS } from './job-limits';

/**
 * Run callbacks: a job with a `callback_url` has each completed run's outcome
 * POSTed there as JSON. "Completed" means the run is decided: it succeeded,
 * or it failed with no retry left. A run retried three times gives one
 * callback (its last attempt's outcome, with `attempt` saying which), not
 * four: the receiver hears once per run, as an alert would.
 *
 * The callback is signed like the alert webhooks: `X-Cronbeam-Signature:
 * t=<unix seconds>,v1=<hex>[,v1=<hex>]`, each v1 an HMAC-SHA256 over
 * `<t>.<body>` with one of the job's signing secrets (both while a rotated
 * secret overlaps). A job made before signed requests has no secret and its
 * callbacks are unsigned until one is rotated in.
 */
export const CALLBACK_EVENT = 'run.completed';
export const CALLBACK_EVENT_HEADER = 'x-cronbeam-event';

/** A callback carries at most this many characters of the run's response body (`response_body_truncated` says when cut). */
export const CALLBACK_BODY_MAX_CHARS = 4096;

export const CALLBACK_MESSAGES = {
  url: 'callback_url must be null or an http(s) URL',
  tooLong: `callback_url must be at most ${JOB_LIMITS.urlMaxLength} characters`,
  privateTarget: 'callback_url must not point to a private, loopback or link-local address',
} as const;

/** Absolute http(s) URL or null (no callbacks); the target policy is the server's check beside it. */
export const callbackUrlSchema = z
  .string({ error: CALLBACK_MESSAGES.url })
  .trim()
  .max(JOB_LIMITS.urlMaxLength, { error: CALLBACK_MESSAGES.tooLong, abort: true })
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, CALLBACK_MESSAGES.url)
  .nullable()
  .default(null);

/** The JSON body of a callback. */
export interface RunCallbackPayload {
  event: typeof CALLBACK_EVENT;
  job_id: string;
  /** The run's id, as the job's logs show it; also the execution id its request carried. A receiver may see a callback twice (at least once): this is the key to drop repeats by. */
  run_id: string;
  trigger: string;
  scheduled_for: string;
  executed_at: string;
  status: 'success' | 'failed';
  response_code: number | null;
  duration_ms: number;
  /** The attempt the outcome is from: 1 for the first request, n + 1 after n retries. */
  attempt: number;
  error_message: string | null;
  response_body: string | null;
  response_body_truncated: boolean;
}

/** One attempt to deliver a callback, as GET …/jobs/{id}/callback-deliveries answers it, newest first. */
export interface CallbackDelivery {
  delivery_id: string;
  run_id: string;
  attempt: number;
  status: 'delivered' | 'failed';
  response_code: number | null;
  error: string | null;
  created_at: string;
}
