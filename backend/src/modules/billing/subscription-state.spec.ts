import type Stripe from 'stripe';
import type { SubscriptionRow } from './billing.repository';
import { entitledPlan, hasPendingDowngrade, KEPT_PLAN_KEY, KEPT_PLAN_UNTIL_KEY, subscriptionRowOf, subscriptionStatusOf } from './subscription-state';

const row = (overrides: Partial<SubscriptionRow> = {}): SubscriptionRow => ({
  subscriptionId: 'sub_1',
  accountId: 'u1',
  stripeStatus: 'active',
  plan: 'pro',
  interval: 'monthly',
  keptPlan: null,
  keptPlanUntil: null,
  cancelAtPeriodEnd: false,
  currentPeriodStart: 1_000,
  currentPeriodEnd: 2_000,
  created: 900,
  ...overrides,
});

describe('subscription state', () => {
  it('gives the price plan while the subscription entitles, and free once it does not', () => {
    expect(entitledPlan(row())).toBe('pro');
    expect(entitledPlan(row({ stripeStatus: 'trialing', plan: 'basic' }))).toBe('basic');
    expect(entitledPlan(row({ stripeStatus: 'past_due' }))).toBe('pro'); // a failed payment keeps the plan
    for (const status of ['canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused']) expect(entitledPlan(row({ stripeStatus: status }))).toBe('free');
    expect(entitledPlan(row({ plan: null }))).toBe('free'); // a price that is not ours
    expect(entitledPlan(null)).toBe('free');
  });

  it('keeps the plan paid for after a downgrade until the next period starts', () => {
    const downgraded = row({ plan: 'basic', keptPlan: 'pro', keptPlanUntil: 2_000 });
    expect(hasPendingDowngrade(downgraded)).toBe(true);
    expect(entitledPlan(downgraded)).toBe('pro');
    const renewed = { ...downgraded, currentPeriodStart: 2_000, currentPeriodEnd: 3_000 };
    expect(hasPendingDowngrade(renewed)).toBe(false);
    expect(entitledPlan(renewed)).toBe('basic');
  });

  it('reads plan, interval, period and the kept plan from the Stripe object', () => {
    const subscription = {
      id: 'sub_9',
      customer: 'cus_1',
      status: 'active',
      created: 5,
      cancel_at_period_end: false,
      cancel_at: 3_000,
      metadata: { [KEPT_PLAN_KEY]: 'pro', [KEPT_PLAN_UNTIL_KEY]: '3000' },
      items: { data: [{ price: { lookup_key: 'basic_annual' }, current_period_start: 10, current_period_end: 3_000 }] },
    } as unknown as Stripe.Subscription;
    expect(subscriptionRowOf(subscription, 'u1')).toEqual({
      subscriptionId: 'sub_9',
      accountId: 'u1',
      stripeStatus: 'active',
      plan: 'basic',
      interval: 'annual',
      keptPlan: 'pro',
      keptPlanUntil: 3_000,
      cancelAtPeriodEnd: true, // cancel_at set counts as a scheduled cancellation
      currentPeriodStart: 10,
      currentPeriodEnd: 3_000,
      created: 5,
    });
    const foreign = { ...subscription, metadata: { [KEPT_PLAN_KEY]: 'enterprise' }, items: { data: [{ price: { lookup_key: 'gold' } }] } } as unknown as Stripe.Subscription;
    expect(subscriptionRowOf(foreign, 'u1')).toMatchObject({ plan: null, interval: null, keptPlan: null, keptPlanUntil: null });
  });

  it('names the status the profile shows', () => {
    expect(subscriptionStatusOf(null, 'free')).toBe('free');
    expect(subscriptionStatusOf(null, 'pro')).toBe('active'); // a plan set by an operator
    expect(subscriptionStatusOf(row(), 'pro')).toBe('active');
    expect(subscriptionStatusOf(row({ stripeStatus: 'past_due' }), 'pro')).toBe('past_due');
    expect(subscriptionStatusOf(row({ stripeStatus: 'canceled' }), 'free')).toBe('cancelled');
  });
});
