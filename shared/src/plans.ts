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
  /** The shortest time between two runs of one job's schedule (a six-field cron can fire every second). */
  minIntervalSeconds: number;
  /** The longest a job's request may take (timeout_seconds); the server's EXECUTION_TIMEOUT_MS may be lower. */
  maxTimeoutSeconds: number;
  /** How long the account's audit log keeps an entry. */
  auditRetentionDays: number;
}

export const PLAN_LIMITS: Record<PlanId, PlanLimits> = {
  free: { maxJobs: 2, executionsPerMonth: 100, deploymentsPerMonth: 1, minIntervalSeconds: 60, maxTimeoutSeconds: 30, auditRetentionDays: 30 },
  basic: { maxJobs: 10, executionsPerMonth: 1_500, deploymentsPerMonth: 5, minIntervalSeconds: 10, maxTimeoutSeconds: 300, auditRetentionDays: 90 },
  pro: { maxJobs: 50, executionsPerMonth: 10_000, deploymentsPerMonth: 500, minIntervalSeconds: 1, maxTimeoutSeconds: 1_800, auditRetentionDays: 365 },
  unlimited: { maxJobs: 1_000_000, executionsPerMonth: 1_000_000_000, deploymentsPerMonth: 1_000_000, minIntervalSeconds: 1, maxTimeoutSeconds: 7_200, auditRetentionDays: 3650 },
};

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}

/** Plans a customer can buy. */
export const PAID_PLAN_IDS = ['basic', 'pro'] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

export const BILLING_INTERVALS = ['monthly', 'annual'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** The interval the pricing page opens on. */
export const DEFAULT_BILLING_INTERVAL: BillingInterval = 'annual';

/** Prices in US dollars: per month when paid monthly, and per month of a year paid at once. */
export const PLAN_PRICES: Record<PaidPlanId, { monthly: number; annualPerMonth: number }> = {
  basic: { monthly: 9.8, annualPerMonth: 7.9 },
  pro: { monthly: 59.9, annualPerMonth: 37 },
};

/** Order of plans by what they give: a move to a higher rank is an upgrade. */
export const PLAN_RANK: Record<PlanId, number> = { free: 0, basic: 1, pro: 2, unlimited: 3 };

export function isPaidPlanId(value: unknown): value is PaidPlanId {
  return typeof value === 'string' && (PAID_PLAN_IDS as readonly string[]).includes(value);
}

/** The saving of annual billing: the rounded percentage off the monthly price. */
export function annualSavingPercent(plan: PaidPlanId): number {
  const { monthly, annualPerMonth } = PLAN_PRICES[plan];
  return Math.round((1 - annualPerMonth / monthly) * 100);
}

/** What one billing cycle costs, in cents (a year of the annual per-month price). */
export function priceInCents(plan: PaidPlanId, interval: BillingInterval): number {
  const { monthly, annualPerMonth } = PLAN_PRICES[plan];
  return Math.round((interval === 'monthly' ? monthly : annualPerMonth * 12) * 100);
}

/** The payment provider finds each price by this key (`basic_monthly`, `pro_annual`, ...). */
export function priceLookupKey(plan: PaidPlanId, interval: BillingInterval): string {
  return `${plan}_${interval}`;
}

/** The inverse of priceLookupKey; null for keys that are not ours. */
export function parsePriceLookupKey(key: string | null | undefined): { plan: PaidPlanId; interval: BillingInterval } | null {
  const match = /^(basic|pro)_(monthly|annual)$/.exec(key ?? '');
  return match ? { plan: match[1] as PaidPlanId, interval: match[2] as BillingInterval } : null;
}

/** A card of the pricing page. */
export interface PlanOffer {
  id: 'free' | PaidPlanId;
  name: string;
  description: string;
  features: string[];
  popular: boolean;
  buttonText: string;
}

const limitFeatures = (plan: PlanId) => [
  `${PLAN_LIMITS[plan].maxJobs} cron jobs`,
  `${PLAN_LIMITS[plan].executionsPerMonth.toLocaleString('en-US')} executions per month`,
  `${PLAN_LIMITS[plan].deploymentsPerMonth} self-hosted n8n deployment${PLAN_LIMITS[plan].deploymentsPerMonth === 1 ? '' : 's'} per month`,
];

export const PLAN_OFFERS: readonly PlanOffer[] = [
  {
    id: 'free',
    name: 'Free',
    description: 'For trying things out and small side projects.',
    features: [...limitFeatures('free'), 'Email and community support'],
    popular: false,
    buttonText: 'Start for Free',
  },
  {
    id: 'basic',
    name: 'Basic',
    description: 'For indie hackers and small teams with real workloads.',
    features: [...limitFeatures('basic'), 'Email support, 24-hour response', 'Email notifications', 'Detailed logs'],
    popular: true,
    buttonText: 'Get Basic',
  },
  {
    id: 'pro',
    name: 'Pro',
    description: 'For teams that run their business on schedules.',
    features: [
      ...limitFeatures('pro'),
      'Priority support, 4-hour response in business hours',
      'API access',
      'Advanced alerting',
    ],
    popular: false,
    buttonText: 'Get Pro',
  },
];
