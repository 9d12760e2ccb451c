import type { ProfileStats } from '@cronbeam/shared/billing/billing-types';
import { afterCancel, afterCancelRefused, canCancel, subscriptionViewOf } from './subscription-state';

const stats = (overrides: Partial<ProfileStats>): ProfileStats => ({
  plan: 'pro',
  subscription_status: 'active',
  cancel_at_period_end: false,
  current_period_end: 2_000,
  interval: 'monthly',
  scheduled_plan: null,
  subscription_id: 'sub_1',
  billing_enabled: true,
  ...overrides,
});

describe('profile subscription state', () => {
  it('uses the status the stats carry; a cancelled one with no scheduled cancellation shows free', () => {
    expect(subscriptionViewOf(stats({}))).toEqual({ plan: 'pro', status: 'active', cancellationScheduled: false, periodEnd: 2_000 });
    expect(subscriptionViewOf(stats({ subscription_status: 'cancelled' })).plan).toBe('free');
    expect(subscriptionViewOf(stats({ subscription_status: 'cancelled', cancel_at_period_end: true })).plan).toBe('pro');
  });

  it('without a status: none for the free plan, active otherwise', () => {
    const noStatus = (plan: ProfileStats['plan']) => stats({ plan, subscription_status: '' as ProfileStats['subscription_status'] });
    expect(subscriptionViewOf(noStatus('free')).status).toBe('none');
    expect(subscriptionViewOf(noStatus('basic')).status).toBe('active');
  });

  it('offers cancellation only for an active paid plan not already set to cancel', () => {
    expect(canCancel(subscriptionViewOf(stats({})))).toBe(true);
    expect(canCancel(subscriptionViewOf(stats({ plan: 'free', subscription_status: 'free' })))).toBe(false);
    expect(canCancel(subscriptionViewOf(stats({ subscription_status: 'past_due' })))).toBe(false);
    expect(canCancel(subscriptionViewOf(stats({ cancel_at_period_end: true })))).toBe(false);
  });

  it('after cancelling: scheduled keeps the plan with an access-until date; otherwise free', () => {
    const view = subscriptionViewOf(stats({}));
    expect(afterCancel(view, { cancel_at_period_end: true, current_period_end: 3_000, subscription_status: 'active' })).toEqual({
      plan: 'pro',
      status: 'active',
      cancellationScheduled: true,
      periodEnd: 3_000,
    });
    expect(afterCancel(view, { cancel_at_period_end: false, current_period_end: null, subscription_status: 'cancelled' })).toMatchObject({ plan: 'free', status: 'cancelled' });
  });

  it('maps the refusals to the spec texts', () => {
    const view = subscriptionViewOf(stats({}));
    expect(afterCancelRefused(view, 400, 'No active subscription to cancel')).toEqual({
      view: { ...view, plan: 'free' },
      message: "You don't have an active subscription to cancel",
    });
    expect(afterCancelRefused(view, 400, 'Subscription is not active')).toEqual({
      view: { ...view, status: 'cancelled' },
      message: 'Your subscription is already canceled or inactive',
    });
    expect(afterCancelRefused(view, 503, 'The payment provider could not be reached. Please try again.').message).toBe(
      'Failed to cancel subscription: The payment provider could not be reached. Please try again.',
    );
  });
});
