import Stripe from 'stripe';
import { BILLING_INTERVALS, PAID_PLAN_IDS, PLAN_LIMITS, priceInCents, priceLookupKey, type PaidPlanId } from '@cronbeam/shared/plans';

/** What `npm run billing:setup` did for one product or price. */
export interface CatalogChange {
  item: string;
  action: 'created' | 'unchanged' | 'replaced';
  id: string;
}

const productId = (plan: PaidPlanId) => `cronbeam_${plan}`;
const STRIPE_INTERVAL = { monthly: 'month', annual: 'year' } as const;

/**
 * Makes Stripe's catalog match shared/src/plans.ts: one product per paid plan
 * (fixed ids) and one active price per plan and interval, found by its lookup
 * key. Idempotent: a second run changes nothing; a changed amount creates a
 * new price, moves the lookup key to it and archives the old one (Stripe
 * prices cannot be edited, and subscriptions keep the price they were sold at).
 */
export async function syncBillingCatalog(stripe: Stripe): Promise<CatalogChange[]> {
  const changes: CatalogChange[] = [];
  for (const plan of PAID_PLAN_IDS) {
    const id = productId(plan);
    const name = `Cronbeam ${plan.charAt(0).toUpperCase()}${plan.slice(1)}`;
    const existing = await stripe.products.retrieve(id).catch((error: unknown) => {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
      throw error;
    });
    if (existing) {
      changes.push({ item: `product ${id}`, action: 'unchanged', id });
    } else {
      const limits = PLAN_LIMITS[plan];
      await stripe.products.create({
        id,
        name,
        description: `${limits.maxJobs} cron jobs, ${limits.executionsPerMonth.toLocaleString('en-US')} executions a month`,
        metadata: { cronbeam_plan: plan },
      });
      changes.push({ item: `product ${id}`, action: 'created', id });
    }
    for (const interval of BILLING_INTERVALS) {
      const lookupKey = priceLookupKey(plan, interval);
      const amount = priceInCents(plan, interval);
      const current = (await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 })).data[0];
      const matches =
        current && current.unit_amount === amount && current.currency === 'usd' && current.recurring?.interval === STRIPE_INTERVAL[interval] && current.product === id;
      if (matches) {
        changes.push({ item: `price ${lookupKey}`, action: 'unchanged', id: current.id });
        continue;
      }
      const price = await stripe.prices.create({
        product: id,
        currency: 'usd',
        unit_amount: amount,
        recurring: { interval: STRIPE_INTERVAL[interval] },
        lookup_key: lookupKey,
        transfer_lookup_key: true,
        nickname: `${name} (${interval})`,
      });
      if (current) await stripe.prices.update(current.id, { active: false });
      changes.push({ item: `price ${lookupKey}`, action: current ? 'replaced' : 'created', id: price.id });
    }
  }
  return changes;
}
