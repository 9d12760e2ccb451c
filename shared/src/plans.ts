/**
 * Plans and their limits: the one source the API, the scheduler, the web app
 * and the docs read. `unlimited` is for operators and self-hosted accounts.
 */
export const PLAN_IDS = ['free', 'basic', 'pro', 'unlimited'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface PlanLimits {
  maxJobs: number;
  executionsPerMonth: number;
  deploymentsPerMonth: number;
}

export const PLAN_LIMITS: Record<PlanId, PlanLimits> = {
  free: { maxJobs: 2, executionsPerMonth: 100, deploymentsPerMonth: 1 },
  basic: { maxJobs: 10, executionsPerMonth: 1_500, deploymentsPerMonth: 5 },
  pro: { maxJobs: 50, executionsPerMonth: 10_000, deploymentsPerMonth: 500 },
  unlimited: { maxJobs: 1_000_000, executionsPerMonth: 1_000_000_000, deploymentsPerMonth: 1_000_000 },
};

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}
