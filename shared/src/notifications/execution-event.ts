import { z } from 'zod';

/**
 * One stored execution of the caller's jobs, as `GET /api/events` sends it
 * (event `execution`, SSE id = `run_id`). A client that reconnects sends the
 * last id it saw as `Last-Event-ID` and gets the outcomes stored since then
 * first; an outcome may then arrive twice, so clients drop ids they have seen.
 */
export const executionEventSchema = z.object({
  run_id: z.string(),
  job_id: z.string(),
  trigger: z.enum(['schedule', 'retry', 'manual', 'recovery']),
  attempt: z.number().int(),
  status: z.enum(['success', 'failed']),
  response_code: z.number().int().nullable(),
  duration_ms: z.number(),
  error_message: z.string().nullable(),
  scheduled_for: z.string(),
  executed_at: z.string(),
  /** A retry of this failure is queued: the failure episode is not decided yet. */
  will_retry: z.boolean(),
});

export type ExecutionEvent = z.infer<typeof executionEventSchema>;

/** Outcomes replayed on one reconnect at most; older ones are in the job logs. */
export const EVENT_REPLAY_LIMIT = 500;
