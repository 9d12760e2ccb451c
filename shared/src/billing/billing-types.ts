import { z } from 'zod';
import { BILLING_INTERVALS, PAID_PLAN_IDS, type BillingInterval, type PaidPlanId, type PlanId } from '../plans';

/**
 * The billing calls of the web app (`/api/stripe/...`) and the profile stats,
 * shared by the backend, the web app and the tests.
 */
export const BILLING_PATHS = {
  createCheckoutSession: '/stripe/create-checkout-session',
  confirmPlanChange: '/stripe/confirm-plan-change',
  cancelSubscription: '/stripe/cancel-subscription',
  webhook: '/stripe/webhook',
  profileStats: '/profile/stats',
} as const;

/** What the server answers and the screens show. */
export const BILLING_MESSAGES = {
  notConfigured: 'Billing is not configured on this server',
  pricesMissing: 'Billing prices are not set up on this server (run npm run billing:setup)',
  providerUnavailable: 'The payment provider could not be reached. Please try again.',
  planRequired: 'Please choose the basic or pro plan',
  intervalRequired: "Interval must be 'monthly' or 'annual'",
  subscriptionIdRequired: 'subscription_id is required',
  subscriptionNotFound: 'Subscription not found',
  alreadyOnPlan: 'You are already subscribed to this plan',
  /** The 400s of a cancellation; the client recognises them by "no active subscription" and "not active". */
  noActiveSubscription: 'No active subscription to cancel',
  subscriptionNotActive: 'Subscription is not active',
  invalidSignature: 'Invalid webhook signature',
  // What the screens say.
  checkoutFailed: 'Failed to create checkout session',
  planChangeFailed: 'Failed to change subscription plan',
  cancelNoSubscription: "You don't have an active subscription to cancel",
  cancelAlreadyInactive: 'Your subscription is already canceled or inactive',
  cancelFailed: 'Failed to cancel subscription',
} as const;

/** Subscription states as the profile shows them. */
export const SUBSCRIPTION_STATUSES = ['none', 'free', 'active', 'past_due', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const objectError = (issue: { code: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' ? `Unknown field: ${(issue.keys ?? []).join(', ')}` : 'Request body must be a JSON object';

const plan = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.enum(PAID_PLAN_IDS, { error: BILLING_MESSAGES.planRequired }),
);
const interval = z.enum(BILLING_INTERVALS, { error: BILLING_MESSAGES.intervalRequired });

export const checkoutRequestSchema = z.strictObject({ plan, interval }, { error: objectError });
export type CheckoutRequest = { plan: PaidPlanId; interval: BillingInterval };

export const planChangeRequestSchema = z.strictObject(
  {
    plan,
    interval,
    subscription_id: z.string({ error: BILLING_MESSAGES.subscriptionIdRequired }).trim().min(1, BILLING_MESSAGES.subscriptionIdRequired).max(255),
  },
  { error: objectError },
);
export type PlanChangeRequest = CheckoutRequest & { subscription_id: string };

/** `at_period_end` defaults to true: the customer keeps what they paid for. */
export const cancelRequestSchema = z
  .strictObject({ at_period_end: z.boolean({ error: 'at_period_end must be true or false' }).optional() }, { error: objectError })
  .optional();
export type CancelRequest = { at_period_end?: boolean } | undefined;

/** A first subscription goes to checkout; a paying customer is asked to confirm the change first. */
export type CheckoutResponse =
  | { checkout_url: string; requires_confirmation?: false }
  | {
      requires_confirmation: true;
      subscription_id: string;
      current_plan: PaidPlanId;
      current_interval: BillingInterval;
      /** The end of the paid period, e.g. 'December 23, 2026'. */
      formatted_end_date: string;
    };

/**
 * The outcome of a confirmed plan change: an upgrade applies at once (billed
 * today), a downgrade at the end of the paid period. `checkout_url` is where
 * the browser goes next.
 */
export interface PlanChangeResponse {
  checkout_url: string;
  change: 'upgraded' | 'downgrade_scheduled';
  plan: PlanId;
  scheduled_plan: PaidPlanId | null;
  /** Epoch seconds when the change takes effect. */
  effective_at: number;
  formatted_effective_date: string;
}

export interface CancelResponse {
  cancel_at_period_end: boolean;
  /** Epoch seconds; null when the subscription ended at once. */
  current_period_end: number | null;
  subscription_status: SubscriptionStatus;
}

/** GET /api/profile/stats. */
export interface ProfileStats {
  plan: PlanId;
  subscription_status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  /** Epoch seconds, or null without a subscription. */
  current_period_end: number | null;
  interval: BillingInterval | null;
  /** A downgrade waiting for the end of the period. */
  scheduled_plan: PaidPlanId | null;
  subscription_id: string | null;
  billing_enabled: boolean;
}

/** 'December 23, 2026' for an epoch-seconds instant, in UTC. */
export function formatBillingDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
