import { shortestGapSeconds } from '../cron/cron-schedule';
import { PLAN_LIMITS, type PlanId } from '../plans';

/**
 * The plan's floor on how often one job may run: a six-field cron expression
 * can fire every second, and each run is an execution of the plan's quota.
 * Null when the schedule respects it; otherwise the message for its
 * cron_expression field.
 */
export function planIntervalError(expression: string, timeZone: string, plan: PlanId): string | null {
  const floor = PLAN_LIMITS[plan].minIntervalSeconds;
  const gap = shortestGapSeconds(expression, timeZone);
  if (gap >= floor) return null;
  return `The ${plan} plan runs a job at most once every ${floor} second${floor === 1 ? '' : 's'}; this schedule runs ${gap} second${gap === 1 ? '' : 's'} apart`;
}

/** The plan's floor for an interval schedule: null when every_seconds respects it, else the message for the field. */
export function planEveryError(everySeconds: number, plan: PlanId): string | null {
  const floor = PLAN_LIMITS[plan].minIntervalSeconds;
  if (everySeconds >= floor) return null;
  return `The ${plan} plan runs a job at most once every ${floor} second${floor === 1 ? '' : 's'}; every_seconds is ${everySeconds}`;
}
