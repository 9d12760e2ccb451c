import type Stripe from 'stripe';
import type { SubscriptionStatus } from '@cronbeam/shared/billing/billing-types';
import { isPaidPlanId, parsePriceLookupKey, type PlanId } from '@cronbeam/shared/plans';
import { ENTITLING_STATUSES, type SubscriptionRow } from './billing.repository';

/**
 * Subscription metadata recording a downgrade: the plan already paid for and
 * the instant (epoch seconds, the end of the paid period) until which it is
 * kept. Kept on the subscription itself, so its state alone says which plan
 * applies, whatever order its events arrive in.
 */
export const KEPT_PLAN_KEY = 'cronbeam_kept_plan';
export const KEPT_PLAN_UNTIL_KEY = 'cronbeam_kept_plan_until';

const idOf = (value: string | { id: string } | null): string | null => (value === null ? null : typeof value === 'string' ? value : value.id);

export function customerIdOf(subscription: Stripe.Subscription): string | null {
  return idOf(subscription.customer);
}

/** Our row for a subscription object as the provider answers it. */
export function subscriptionRowOf(subscription: Stripe.Subscription, accountId: string): SubscriptionRow {
  const item = subscription.items.data[0];
  const price = parsePriceLookupKey(item?.price.lookup_key);
  const keptPlan = subscription.metadata?.[KEPT_PLAN_KEY];
  const keptUntil = Number(subscription.metadata?.[KEPT_PLAN_UNTIL_KEY]);
  return {
    subscriptionId: subscription.id,
    accountId,
    stripeStatus: subscription.status,
    plan: price?.plan ?? null,
    interval: price?.interval ?? null,
    keptPlan: isPaidPlanId(keptPlan) ? keptPlan : null,
    keptPlanUntil: Number.isFinite(keptUntil) && keptUntil > 0 ? keptUntil : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    currentPeriodStart: item?.current_period_start ?? null,
    currentPeriodEnd: item?.current_period_end ?? null,
    created: subscription.created,
  };
}

export function isEntitling(row: SubscriptionRow | null): row is SubscriptionRow {
  return row !== null && (ENTITLING_STATUSES as readonly string[]).includes(row.stripeStatus);
}

/** A downgrade waits until the paid period it was requested in has ended. */
export function hasPendingDowngrade(row: SubscriptionRow): boolean {
  return row.keptPlan !== null && row.keptPlanUntil !== null && (row.currentPeriodStart ?? 0) < row.keptPlanUntil;
}

/**
 * The plan a subscription gives: the kept plan until a downgrade takes effect,
 * else its price's plan; free once it no longer entitles (cancelled, unpaid).
 * A failed payment (past_due) keeps the plan until the provider gives up.
 */
export function entitledPlan(row: SubscriptionRow | null): PlanId {
  if (!isEntitling(row)) return 'free';
  if (hasPendingDowngrade(row)) return row.keptPlan!;
  return row.plan ?? 'free';
}

/** The status the profile shows. */
export function subscriptionStatusOf(row: SubscriptionRow | null, plan: PlanId): SubscriptionStatus {
  if (!row) return plan === 'free' ? 'free' : 'active';
  switch (row.stripeStatus) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
      return 'past_due';
    case 'incomplete':
      return 'none';
    default:
      return 'cancelled';
  }
}
