import { PLAN_LIMITS, type PlanId } from '../plans';

/** A job without timeout_seconds gets this long (at most the server's ceiling): the 30 s every job had before per-job limits. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * The longest request a job of this plan may ask for on this server: the
 * plan's maximum, lowered to the server's ceiling (EXECUTION_TIMEOUT_MS).
 */
export function maxTimeoutSeconds(plan: PlanId, serverCeilingMs: number): number {
  return Math.min(PLAN_LIMITS[plan].maxTimeoutSeconds, Math.floor(serverCeilingMs / 1000));
}

/** The time limit a job's request runs under, in ms: its own, or the default, never past the server's ceiling. */
export function effectiveTimeoutMs(timeoutMs: number | null, serverCeilingMs: number): number {
  return Math.min(timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000, serverCeilingMs);
}

/**
 * Null when the job's timeout_seconds fits its plan and this server;
 * otherwise the message for the field, naming the plan (and the server when
 * its ceiling is the lower one).
 */
export function planTimeoutError(timeoutSeconds: number | null, plan: PlanId, serverCeilingMs: number): string | null {
  if (timeoutSeconds === null) return null;
  const planMax = PLAN_LIMITS[plan].maxTimeoutSeconds;
  const serverMax = Math.floor(serverCeilingMs / 1000);
  if (timeoutSeconds <= Math.min(planMax, serverMax)) return null;
  if (timeoutSeconds > planMax) return `timeout_seconds: the ${plan} plan allows requests of at most ${planMax} seconds; ${timeoutSeconds} asked`;
  return `timeout_seconds: this server allows requests of at most ${serverMax} seconds (the ${plan} plan would allow ${planMax}); ${timeoutSeconds} asked`;
}
