import { describe, expect, it } from '@jest/globals';
import { annualSavingPercent, parsePriceLookupKey, priceInCents, priceLookupKey, PLAN_OFFERS } from '../plans';

describe('plan prices', () => {
  it('computes the annual saving as the rounded percentage off the monthly price', () => {
    expect(annualSavingPercent('basic')).toBe(19); // 7.9 against 9.8
    expect(annualSavingPercent('pro')).toBe(38); // 37 against 59.9
  });

  it('bills a month, or twelve months of the annual per-month price, in cents', () => {
    expect(priceInCents('basic', 'monthly')).toBe(980);
    expect(priceInCents('basic', 'annual')).toBe(9480);
    expect(priceInCents('pro', 'monthly')).toBe(5990);
    expect(priceInCents('pro', 'annual')).toBe(44400);
  });

  it('round-trips lookup keys and refuses others', () => {
    expect(priceLookupKey('pro', 'annual')).toBe('pro_annual');
    expect(parsePriceLookupKey('basic_monthly')).toEqual({ plan: 'basic', interval: 'monthly' });
    for (const key of ['free_monthly', 'pro_weekly', 'pro_annual_x', '', null, undefined]) expect(parsePriceLookupKey(key)).toBeNull();
  });

  it('offers three cards: free, basic, pro', () => {
    expect(PLAN_OFFERS.map((o) => o.id)).toEqual(['free', 'basic', 'pro']);
    expect(PLAN_OFFERS.find((o) => o.id === 'pro')!.features).toContain('50 cron jobs');
  });
});
