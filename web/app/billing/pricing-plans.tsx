import { useEffect, useState } from 'react';
import type { CheckoutResponse, ProfileStats } from '@cronbeam/shared/billing/billing-types';
import {
  annualSavingPercent,
  DEFAULT_BILLING_INTERVAL,
  PAID_PLAN_IDS,
  PLAN_OFFERS,
  PLAN_PRICES,
  priceInCents,
  type BillingInterval,
  type PaidPlanId,
  type PlanOffer,
} from '@cronbeam/shared/plans';
import { useSession } from '../session/session-store';
import { Modal } from '../ui/modal';

/** The API client and its messages load on first use: the prerendered page paints and hydrates without them. */
const loadActions = () => import('./pricing-actions');

/** The error banner hides itself after this long. */
export const ERROR_BANNER_MS = 5_000;

const BEST_SAVING = Math.max(...PAID_PLAN_IDS.map(annualSavingPercent));

const FAQ: Array<[string, string]> = [
  ['Can I start for free?', 'Yes. The Free plan needs no credit card and keeps its 2 jobs and 100 executions a month for as long as you like.'],
  ['What happens when I reach my execution limit?', 'Jobs stop until the next billing cycle (or until you upgrade). Nothing is deleted; they resume on their own when the new period starts.'],
  ['When does a plan change take effect?', 'Upgrades apply immediately and are billed today, pro rata. Downgrades take effect at the end of the period you have paid for.'],
  ['Can I cancel at any time?', 'Yes, from your profile. You keep your plan until the end of the paid period and are not charged again.'],
  ['Do you offer refunds?', 'Within 48 hours of a payment, if no executions ran on the paid plan. We answer refund requests within 3-5 business days.'],
  ['How do I pay?', 'By card, through Stripe. We never see or store your card number.'],
];

/** A per-month price as the plan table writes it ($9.8, $37). */
const perMonthPrice = (amount: number) => `$${amount}`;
/** A charged amount in whole dollars or with cents ($444, $94.80). */
const chargedAmount = (cents: number) => `$${cents % 100 === 0 ? cents / 100 : (cents / 100).toFixed(2)}`;

interface PendingChange {
  plan: PaidPlanId;
  interval: BillingInterval;
  subscriptionId: string;
  currentPlan: string;
  endDate: string;
}

/** True once the page runs in the browser: the prerendered HTML is the signed-out page, and hydration must first match it. */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/**
 * The plans of /pricing: monthly or annual billing, checkout for a first plan
 * and a confirmed change for a paying customer. `go` follows a URL: a page
 * load on the prerendered page, the router inside the app.
 */
export function PricingPlans({ go }: { go: (url: string) => void }) {
  const hasSession = Boolean(useSession((s) => s.accessToken));
  const signedIn = useMounted() && hasSession;
  const [interval, setInterval] = useState<BillingInterval>(DEFAULT_BILLING_INTERVAL);
  const [stats, setStats] = useState<ProfileStats | null>(null);
  /** What the page says when this server has no billing (the text comes with the lazily loaded messages). */
  const [billingOff, setBillingOff] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [busy, setBusy] = useState<PaidPlanId | 'change' | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);

  useEffect(() => {
    if (!signedIn) return;
    loadActions()
      .then(async ({ billingApi, BILLING_MESSAGES }) => {
        const answer = await billingApi.profileStats(true);
        setStats(answer);
        if (!answer.billing_enabled) setBillingOff(`${BILLING_MESSAGES.notConfigured}. Plans can still be changed by an operator.`);
      })
      .catch(() => undefined);
  }, [signedIn]);

  useEffect(() => {
    if (!banner) return;
    const timer = setTimeout(() => setBanner(null), ERROR_BANNER_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  const fail = async (prefix: 'checkoutFailed' | 'planChangeFailed', error: unknown) => {
    const { ApiRequestError, BILLING_MESSAGES, errorMessage } = await loadActions();
    if (error instanceof ApiRequestError && error.status === 401) return; // the session handler takes the user to /login
    setBanner(`${BILLING_MESSAGES[prefix]}: ${errorMessage(error)}`);
  };

  const choose = async (offer: PlanOffer) => {
    if (offer.id === 'free') {
      go(signedIn ? '/profile' : '/signup');
      return;
    }
    if (!signedIn) {
      go('/login?redirect=pricing');
      return;
    }
    setBusy(offer.id);
    setBanner(null);
    try {
      const { billingApi } = await loadActions();
      const answer: CheckoutResponse = await billingApi.createCheckout({ plan: offer.id, interval });
      if (answer.requires_confirmation) {
        setPending({ plan: offer.id, interval, subscriptionId: answer.subscription_id, currentPlan: answer.current_plan, endDate: answer.formatted_end_date });
        setBusy(null);
        return;
      }
      go(answer.checkout_url);
    } catch (error) {
      setBusy(null);
      await fail('checkoutFailed', error);
    }
  };

  const confirmChange = async () => {
    if (!pending) return;
    setBusy('change');
    try {
      const { billingApi } = await loadActions();
      const answer = await billingApi.confirmPlanChange({ plan: pending.plan, interval: pending.interval, subscription_id: pending.subscriptionId });
      setPending(null);
      go(answer.checkout_url);
    } catch (error) {
      setPending(null);
      await fail('planChangeFailed', error);
    } finally {
      setBusy(null);
    }
  };

  // With a cancellation scheduled, the plan's own card stays clickable: choosing it again resumes the subscription.
  const isCurrent = (offer: PlanOffer) =>
    stats !== null && !stats.cancel_at_period_end && stats.plan === offer.id && (offer.id === 'free' || stats.interval === null || stats.interval === interval);

  return (
    <div className="pricing">
      <section className="pricing-hero">
        <h1>Simple pricing for reliable cron jobs</h1>
        <p className="muted">Start free. Upgrade when your schedules grow. Cancel any time.</p>
        <div className="interval-toggle" role="group" aria-label="Billing interval">
          <button type="button" aria-pressed={interval === 'monthly'} onClick={() => setInterval('monthly')}>
            Monthly
          </button>
          <button type="button" aria-pressed={interval === 'annual'} onClick={() => setInterval('annual')}>
            Annually <span className="saving-badge">Save up to {BEST_SAVING}%</span>
          </button>
        </div>
      </section>

      {banner && (
        <div className="alert alert-error pricing-banner" role="alert">
          {banner}
        </div>
      )}
      {billingOff && (
        <div className="alert alert-info pricing-banner" role="status">
          {billingOff}
        </div>
      )}

      <div className="plan-cards">
        {PLAN_OFFERS.map((offer) => {
          const current = isCurrent(offer);
          const paid = offer.id !== 'free';
          const price = paid ? PLAN_PRICES[offer.id as PaidPlanId] : null;
          const perMonth = price ? (interval === 'annual' ? price.annualPerMonth : price.monthly) : 0;
          return (
            <article key={offer.id} className={offer.popular ? 'plan-card plan-card-popular' : 'plan-card'} aria-labelledby={`plan-${offer.id}`}>
              {offer.popular && <span className="popular-badge">Most popular</span>}
              <h2 id={`plan-${offer.id}`}>{offer.name}</h2>
              <p className="muted plan-description">{offer.description}</p>
              <p className="plan-price">
                <span className="plan-amount">{perMonthPrice(perMonth)}</span>
                <span className="muted"> / month</span>
              </p>
              <p className="muted plan-billing">
                {!price
                  ? 'Free forever'
                  : interval === 'annual'
                    ? `${chargedAmount(priceInCents(offer.id as PaidPlanId, 'annual'))} billed annually · save ${annualSavingPercent(offer.id as PaidPlanId)}%`
                    : 'Billed monthly'}
              </p>
              <button
                type="button"
                className={offer.popular ? 'button button-primary button-block' : 'button button-secondary button-block'}
                disabled={current || busy !== null}
                onClick={() => void choose(offer)}
              >
                {current ? 'Current Plan' : busy === offer.id ? 'Redirecting...' : offer.id === 'free' && signedIn ? 'Manage Subscription' : offer.buttonText}
              </button>
              <ul className="plan-features">
                {offer.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </article>
          );
        })}
      </div>

      <section className="faq" aria-labelledby="faq-title">
        <h2 id="faq-title">Frequently asked questions</h2>
        {FAQ.map(([question, answer]) => (
          <details key={question}>
            <summary>{question}</summary>
            <p>{answer}</p>
          </details>
        ))}
      </section>

      {pending && (
        <Modal
          title="Change Subscription Plan"
          onClose={() => setPending(null)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setPending(null)}>
                Keep Current Plan
              </button>
              <button type="button" className="button button-primary" onClick={() => void confirmChange()} disabled={busy === 'change'}>
                {busy === 'change' ? 'Changing...' : 'Yes, Change My Plan'}
              </button>
            </>
          }
        >
          <p>
            You are on the <strong>{capitalize(pending.currentPlan)}</strong> plan{pending.endDate ? `, paid until ${pending.endDate}` : ''}. Change to{' '}
            <strong>
              {capitalize(pending.plan)} ({pending.interval === 'annual' ? 'annual' : 'monthly'})
            </strong>
            ?
          </p>
          <p className="muted">An upgrade applies immediately and is billed today, pro rata. A downgrade takes effect when the current period ends.</p>
        </Modal>
      )}
    </div>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
