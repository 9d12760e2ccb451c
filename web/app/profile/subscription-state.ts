import { BILLING_MESSAGES, type CancelResponse, type ProfileStats, type SubscriptionStatus } from '@cronbeam/shared/billing/billing-types';
import type { PlanId } from '@cronbeam/shared/plans';

/** What the profile's Subscription section shows. */
export interface SubscriptionView {
  plan: PlanId;
  status: SubscriptionStatus;
  cancellationScheduled: boolean;
  /** Epoch seconds: the end of the paid period (renewal, or the end of access once cancelled). */
  periodEnd: number | null;
}

/**
 * The state on load: the stats' status when they carry one; a cancelled
 * subscription with no scheduled cancellation shows the free plan; without a
 * status, 'none' for the free plan and 'active' for any other.
 */
export function subscriptionViewOf(stats: ProfileStats): SubscriptionView {
  const status: SubscriptionStatus = stats.subscription_status || (stats.plan === 'free' ? 'none' : 'active');
  const plan = status === 'cancelled' && !stats.cancel_at_period_end ? 'free' : stats.plan;
  return { plan, status, cancellationScheduled: stats.cancel_at_period_end, periodEnd: stats.current_period_end };
}

/** The cancel button shows only for a paid plan that is active and not already set to cancel. */
export function canCancel(view: SubscriptionView): boolean {
  return view.plan !== 'free' && view.status === 'active' && !view.cancellationScheduled;
}

/** After a cancellation: scheduled at the period end keeps the plan; otherwise the plan becomes free. */
export function afterCancel(view: SubscriptionView, answer: CancelResponse): SubscriptionView {
  if (answer.cancel_at_period_end) return { ...view, status: 'active', cancellationScheduled: true, periodEnd: answer.current_period_end };
  return { ...view, plan: 'free', status: answer.subscription_status || 'cancelled', cancellationScheduled: false, periodEnd: null };
}

/** A refused cancellation: the message to show and the state it implies. */
export function afterCancelRefused(view: SubscriptionView, status: number, detail: string): { view: SubscriptionView; message: string } {
  if (status === 400 && /no active subscription/i.test(detail)) {
    return { view: { ...view, plan: 'free' }, message: BILLING_MESSAGES.cancelNoSubscription };
  }
  if (status === 400 && /not active/i.test(detail)) {
    return { view: { ...view, status: 'cancelled' }, message: BILLING_MESSAGES.cancelAlreadyInactive };
  }
  return { view, message: `${BILLING_MESSAGES.cancelFailed}: ${detail}` };
}
