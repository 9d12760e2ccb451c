/** Identity refresh retries: exponential from 100 ms plus jitter, never above 5000 ms. */
export const REFRESH_BACKOFF_BASE_MS = 100;
export const REFRESH_BACKOFF_CEILING_MS = 5_000;

/**
 * Delay before retry `attempt` (1-based): 100, 200, 400 … ms plus up to as
 * much again of jitter (so many clients do not retry in step), capped at the ceiling.
 */
export function refreshRetryDelay(attempt: number, random: () => number = Math.random): number {
  const exponential = REFRESH_BACKOFF_BASE_MS * 2 ** Math.min(Math.max(attempt - 1, 0), 16);
  return Math.min(REFRESH_BACKOFF_CEILING_MS, Math.round(exponential + random() * exponential));
}
