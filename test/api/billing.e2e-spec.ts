import Stripe from 'stripe';
import { BILLING_MESSAGES, type CheckoutResponse, type PlanChangeResponse, type ProfileStats } from '@cronbeam/shared/billing/billing-types';
import type { BillingInterval, PaidPlanId } from '@cronbeam/shared/plans';
import { StripeStandIn } from '../fakes/stripe-server';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(120_000);

interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
}

describe('billing with Stripe (/api/stripe, /api/profile/stats)', () => {
  let stripe: StripeStandIn;
  let server: TestServer;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });

  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    stripe.seedPrices();
    server = await startTestServer({ ...stripe.serverEnv(), ADMIN_TOKEN: TEST_ADMIN_TOKEN, PUBLIC_URL: 'http://app.cronbeam.test' });
    stripe.webhookUrl = `${server.baseUrl}/api/stripe/webhook`;
  });

  afterEach(async () => {
    stripe.autoDeliver = true;
    await stripe.settle();
  });

  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  const stats = async (who: SignedInAccount): Promise<ProfileStats> => {
    const res = await server.http.get<ProfileStats>('/api/profile/stats', as(who));
    expect(res.status).toBe(200);
    return res.body;
  };

  const outbox = async (to: string): Promise<OutboxEntry[]> =>
    (await server.http.get<OutboxEntry[]>('/api/dev/outbox')).body.filter((m) => m.to.toLowerCase() === to.toLowerCase());

  /** Asks for a checkout, pays it on the stand-in and waits for the webhooks to be applied. */
  async function subscribe(who: SignedInAccount, plan: PaidPlanId, interval: BillingInterval): Promise<string> {
    const res = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan, interval }, as(who));
    expect(res.status).toBe(200);
    if (!('checkout_url' in res.body)) throw new Error(`expected a checkout URL, got ${res.text}`);
    const sessionId = new URL(res.body.checkout_url).pathname.split('/').pop()!;
    const subscription = stripe.payCheckout(sessionId);
    await stripe.settle();
    return subscription.id as string;
  }

  /** Webhook deliveries of the running test that the app refused (tests that forge events on purpose make their own). */
  let firstDelivery = 0;
  beforeEach(() => {
    firstDelivery = stripe.deliveries.length;
  });
  const failedDeliveries = () => stripe.deliveries.slice(firstDelivery).filter((d) => d.status !== 200);

  it('first checkout: a free user pays on the checkout page and the webhooks make them pro', async () => {
    const user = await signUpAndLogin(server);
    expect(await stats(user)).toMatchObject({ plan: 'free', subscription_status: 'free', cancel_at_period_end: false, current_period_end: null, billing_enabled: true });

    const res = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'Pro', interval: 'annual' }, as(user));
    expect(res.status).toBe(200);
    const checkoutUrl = (res.body as { checkout_url: string }).checkout_url;
    expect(checkoutUrl.startsWith(`${stripe.url}/checkout/`)).toBe(true);
    const session = stripe.sessions.get(new URL(checkoutUrl).pathname.split('/').pop()!)!;
    expect(session.success_url).toBe('http://app.cronbeam.test/success?session_id={CHECKOUT_SESSION_ID}');
    expect(session.cancel_url).toBe('http://app.cronbeam.test/cancel');
    expect(stripe.prices.get(session.line_items[0].price)!.lookup_key).toBe('pro_annual');
    const customer = stripe.customers.get(session.customer)!;
    expect(customer).toMatchObject({ email: user.email, metadata: { user_id: user.userId } });
    // Not paid yet: nothing changed.
    expect((await stats(user)).plan).toBe('free');

    const subscription = stripe.payCheckout(session.id);
    await stripe.settle();
    expect(failedDeliveries()).toEqual([]);
    const after = await stats(user);
    expect(after).toMatchObject({ plan: 'pro', subscription_status: 'active', cancel_at_period_end: false, interval: 'annual', subscription_id: subscription.id });
    expect(after.current_period_end).toBe(subscription.items.data[0].current_period_end);
    expect((await server.http.get('/api/dashboard', as(user))).body).toMatchObject({ plan: 'pro', max_jobs: 50, execution_quota: 10_000 });

    // A paying customer is asked to confirm a change instead of getting a second subscription.
    const again = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'basic', interval: 'monthly' }, as(user));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ requires_confirmation: true, subscription_id: subscription.id, current_plan: 'pro', current_interval: 'annual' });
    expect((again.body as { formatted_end_date: string }).formatted_end_date).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    const same = await server.http.post('/api/stripe/create-checkout-session', { plan: 'pro', interval: 'annual' }, as(user));
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ detail: BILLING_MESSAGES.alreadyOnPlan });
    expect(stripe.customers.size).toBeGreaterThanOrEqual(1);
    expect([...stripe.customers.values()].filter((c) => c.metadata.user_id === user.userId)).toHaveLength(1);
  });

  it('an upgrade applies at once and is billed today', async () => {
    const user = await signUpAndLogin(server);
    const subscriptionId = await subscribe(user, 'basic', 'monthly');
    expect((await stats(user)).plan).toBe('basic');

    const res = await server.http.post<PlanChangeResponse>('/api/stripe/confirm-plan-change', { plan: 'pro', interval: 'monthly', subscription_id: subscriptionId }, as(user));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ change: 'upgraded', plan: 'pro', scheduled_plan: null, checkout_url: 'http://app.cronbeam.test/success' });
    // Applied from Stripe's answer, before any webhook arrives.
    expect((await stats(user)).plan).toBe('pro');
    const invoices = [...stripe.invoices.values()].filter((i) => i.parent.subscription_details.subscription === subscriptionId);
    expect(invoices.map((i) => i.billing_reason)).toEqual(['subscription_create', 'subscription_update']);
    await stripe.settle();
    expect(failedDeliveries()).toEqual([]);
    expect(await stats(user)).toMatchObject({ plan: 'pro', subscription_status: 'active', scheduled_plan: null });
  });

  it('a downgrade waits for the period end, then pauses the newest jobs above the limit, mails the user and starts a fresh quota', async () => {
    const user = await signUpAndLogin(server);
    const subscriptionId = await subscribe(user, 'pro', 'monthly');
    const jobIds: string[] = [];
    const names: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const definition = jobDefinition();
      const created = await server.http.post('/api/jobs', definition, as(user));
      expect(created.status).toBe(200);
      jobIds.push(created.body.job_id);
      names.push(definition.name);
    }
    // The oldest job is held by the quota, and this period's executions are used up.
    await sql(server, `UPDATE jobs SET status = 'quota_reached', next_run_at = NULL WHERE id = $1`, [jobIds[0]]);
    const periodStart = new Date().toISOString().slice(0, 8) + '01';
    await sql(server, `INSERT INTO usage_periods (account_id, period_start, executions) VALUES ($1, $2, 10000)`, [user.userId, periodStart]);

    const res = await server.http.post<PlanChangeResponse>('/api/stripe/confirm-plan-change', { plan: 'basic', interval: 'monthly', subscription_id: subscriptionId }, as(user));
    expect(res.status).toBe(200);
    const periodEnd = stripe.subscriptions.get(subscriptionId)!.items.data[0].current_period_end;
    expect(res.body).toMatchObject({ change: 'downgrade_scheduled', plan: 'pro', scheduled_plan: 'basic', effective_at: periodEnd });
    await stripe.settle();
    expect(await stats(user)).toMatchObject({ plan: 'pro', scheduled_plan: 'basic', current_period_end: periodEnd });
    expect(stripe.invoices.size).toBeGreaterThan(0);
    expect([...stripe.invoices.values()].filter((i) => i.parent.subscription_details.subscription === subscriptionId && i.billing_reason === 'subscription_update')).toEqual([]);
    const jobsBefore = (await server.http.get('/api/jobs', as(user))).body as Array<{ status: string }>;
    expect(jobsBefore.filter((j) => j.status === 'paused')).toHaveLength(0);

    stripe.renew(subscriptionId);
    await stripe.settle();
    expect(failedDeliveries()).toEqual([]);
    expect(await stats(user)).toMatchObject({ plan: 'basic', scheduled_plan: null, subscription_status: 'active' });

    const jobs = (await server.http.get('/api/jobs', as(user))).body as Array<{ job_id: string; status: string }>;
    const paused = jobs.filter((j) => j.status === 'paused').map((j) => j.job_id);
    expect(paused.sort()).toEqual([jobIds[10], jobIds[11]].sort());
    expect(jobs).toHaveLength(12); // paused, never deleted
    // The new paid period: the quota starts afresh and the held job runs again.
    expect(jobs.find((j) => j.job_id === jobIds[0])!.status).toBe('scheduled');
    expect((await server.http.get('/api/dashboard', as(user))).body).toMatchObject({ plan: 'basic', executions_used: 0, execution_quota: 1500 });

    const mails = await outbox(user.email);
    const pausedMail = mails.find((m) => /paused/.test(m.subject));
    expect(pausedMail?.text).toContain(names[10]);
    expect(pausedMail?.text).toContain(names[11]);
    expect(pausedMail?.text).not.toContain(`  - ${names[9]}\n`);
  });

  it('cancel at period end keeps the plan until the period ends, then returns the user to free', async () => {
    const user = await signUpAndLogin(server);
    const subscriptionId = await subscribe(user, 'basic', 'annual');
    const res = await server.http.post('/api/stripe/cancel-subscription', {}, as(user));
    expect(res.status).toBe(200);
    const periodEnd = stripe.subscriptions.get(subscriptionId)!.items.data[0].current_period_end;
    expect(res.body).toEqual({ cancel_at_period_end: true, current_period_end: periodEnd, subscription_status: 'active' });
    await stripe.settle();
    expect(await stats(user)).toMatchObject({ plan: 'basic', subscription_status: 'active', cancel_at_period_end: true, current_period_end: periodEnd });

    stripe.renew(subscriptionId); // the period ends: Stripe deletes the subscription
    await stripe.settle();
    expect(failedDeliveries()).toEqual([]);
    expect(await stats(user)).toMatchObject({ plan: 'free', subscription_status: 'cancelled' });
    const again = await server.http.post('/api/stripe/cancel-subscription', {}, as(user));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: BILLING_MESSAGES.subscriptionNotActive });

    // Subscribing again goes through checkout with the same Stripe customer.
    const customer = stripe.subscriptions.get(subscriptionId)!.customer;
    const checkout = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'pro', interval: 'monthly' }, as(user));
    expect(stripe.sessions.get(new URL((checkout.body as { checkout_url: string }).checkout_url).pathname.split('/').pop()!)!.customer).toBe(customer);
  });

  it('choosing the same plan again while a cancellation is scheduled resumes the subscription', async () => {
    const user = await signUpAndLogin(server);
    const subscriptionId = await subscribe(user, 'pro', 'monthly');
    expect((await server.http.post('/api/stripe/cancel-subscription', {}, as(user))).status).toBe(200);
    const checkout = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'pro', interval: 'monthly' }, as(user));
    expect(checkout.body).toMatchObject({ requires_confirmation: true, subscription_id: subscriptionId });
    const res = await server.http.post('/api/stripe/confirm-plan-change', { plan: 'pro', interval: 'monthly', subscription_id: subscriptionId }, as(user));
    expect(res.status).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);
    expect(await stats(user)).toMatchObject({ plan: 'pro', subscription_status: 'active', cancel_at_period_end: false });
  });

  it('an immediate cancel returns the user to free and pauses the jobs above the free limit', async () => {
    const user = await signUpAndLogin(server);
    await subscribe(user, 'basic', 'monthly');
    for (let i = 0; i < 3; i += 1) expect((await server.http.post('/api/jobs', jobDefinition(), as(user))).status).toBe(200);
    const res = await server.http.post('/api/stripe/cancel-subscription', { at_period_end: false }, as(user));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cancel_at_period_end: false, current_period_end: null, subscription_status: 'cancelled' });
    expect(await stats(user)).toMatchObject({ plan: 'free', subscription_status: 'cancelled' });
    const jobs = (await server.http.get('/api/jobs', as(user))).body as Array<{ status: string }>;
    expect(jobs.map((j) => j.status)).toEqual(['pending', 'pending', 'paused']);
    await stripe.settle();
    expect(failedDeliveries()).toEqual([]);
    expect((await stats(user)).plan).toBe('free');
  });

  it('a failed payment keeps the plan (and tells the user) until Stripe cancels the subscription', async () => {
    const user = await signUpAndLogin(server);
    const subscriptionId = await subscribe(user, 'pro', 'monthly');
    stripe.failRenewal(subscriptionId);
    await stripe.settle();
    expect(await stats(user)).toMatchObject({ plan: 'pro', subscription_status: 'past_due' });
    expect((await outbox(user.email)).some((m) => m.subject === 'Your Cronbeam payment failed')).toBe(true);

    stripe.cancelForNonPayment(subscriptionId);
    await stripe.settle();
    expect(failedDeliveries()).toEqual([]);
    expect(await stats(user)).toMatchObject({ plan: 'free', subscription_status: 'cancelled' });
  });

  it('a replayed event is acknowledged and changes nothing', async () => {
    const user = await signUpAndLogin(server);
    await subscribe(user, 'basic', 'monthly');
    const paid = stripe.eventsOf('invoice.paid').find((e) => stripe.customers.get((e.data.object as Stripe.Invoice).customer as string)?.metadata.user_id === user.userId)!;
    const periodStart = new Date().toISOString().slice(0, 8) + '01';
    await sql(server, `INSERT INTO usage_periods (account_id, period_start, executions) VALUES ($1, $2, 40) ON CONFLICT (account_id, period_start) DO UPDATE SET executions = 40`, [user.userId, periodStart]);

    const replay = await stripe.deliver(paid);
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual({ received: true, duplicate: true });
    expect((await server.http.get('/api/dashboard', as(user))).body.executions_used).toBe(40);
  });

  it('refuses a tampered, unsigned or wrongly signed event (400) and applies nothing', async () => {
    const user = await signUpAndLogin(server);
    stripe.autoDeliver = false;
    const res = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'pro', interval: 'monthly' }, as(user));
    const subscription = stripe.payCheckout(new URL((res.body as { checkout_url: string }).checkout_url).pathname.split('/').pop()!);
    const created = stripe.eventsOf('customer.subscription.created').find((e) => (e.data.object as Stripe.Subscription).id === subscription.id)!;

    const signed = stripe.sign(JSON.stringify(created));
    const tamperedPayload = JSON.stringify({ ...created, id: `${created.id}x` });
    const tampered = await stripe.deliver(created, { payload: tamperedPayload, signature: signed });
    expect(tampered.status).toBe(400);
    expect(JSON.parse(tampered.body)).toEqual({ detail: BILLING_MESSAGES.invalidSignature });
    expect((await stripe.deliver(created, { signature: '' })).status).toBe(400);
    expect((await stripe.deliver(created, { signature: stripe.sign(JSON.stringify(created), 'whsec_somebody_else') })).status).toBe(400);
    const stale = `t=${Math.floor(Date.now() / 1000) - 3600},v1=${signed.split('v1=')[1]}`;
    expect((await stripe.deliver(created, { signature: stale })).status).toBe(400);
    expect((await stats(user)).plan).toBe('free');

    // The genuine delivery of the same event still applies (the refused ones claimed nothing).
    const genuine = await stripe.deliver(created);
    expect(genuine.status).toBe(200);
    expect(JSON.parse(genuine.body)).toEqual({ received: true });
    expect((await stats(user)).plan).toBe('pro');
  });

  it('events delivered out of order end in the state of the subscription itself', async () => {
    const user = await signUpAndLogin(server);
    stripe.autoDeliver = false;
    const first = stripe.events.length;
    const res = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'pro', interval: 'annual' }, as(user));
    const subscription = stripe.payCheckout(new URL((res.body as { checkout_url: string }).checkout_url).pathname.split('/').pop()!);
    stripe.renew(subscription.id);
    // Scheduled to cancel and ended while the webhook was down.
    subscription.cancel_at_period_end = true;
    stripe.renew(subscription.id);
    const events = stripe.events.slice(first);
    expect(events.map((e) => e.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
      'customer.subscription.updated',
      'invoice.paid',
      'customer.subscription.deleted',
    ]);
    for (const event of [...events].reverse()) expect((await stripe.deliver(event)).status).toBe(200);
    expect(await stats(user)).toMatchObject({ plan: 'free', subscription_status: 'cancelled' });
  });

  it('acknowledges (200) and logs an event for a customer that is not ours', async () => {
    const client = new Stripe(stripe.secretKey, { host: '127.0.0.1', port: Number(new URL(stripe.url).port), protocol: 'http' });
    const stranger = await client.customers.create({ email: 'stranger@example.test' });
    const price = (await client.prices.list({ lookup_keys: ['basic_monthly'] })).data[0];
    const session = await client.checkout.sessions.create({
      mode: 'subscription',
      customer: stranger.id,
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'http://elsewhere.test/ok',
      cancel_url: 'http://elsewhere.test/no',
    });
    const before = stripe.deliveries.length;
    stripe.payCheckout(session.id);
    await stripe.settle();
    const deliveries = stripe.deliveries.slice(before);
    expect(deliveries).toHaveLength(3);
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    expect(server.logs.text()).toContain('unknown customer');
  });

  it('only the owner can read or change a subscription', async () => {
    const owner = await signUpAndLogin(server);
    const other = await signUpAndLogin(server);
    const subscriptionId = await subscribe(owner, 'basic', 'monthly');

    const change = await server.http.post('/api/stripe/confirm-plan-change', { plan: 'pro', interval: 'monthly', subscription_id: subscriptionId }, as(other));
    expect(change.status).toBe(404);
    expect(change.body).toEqual({ detail: BILLING_MESSAGES.subscriptionNotFound });
    const cancel = await server.http.post('/api/stripe/cancel-subscription', {}, as(other));
    expect(cancel.status).toBe(400);
    expect(cancel.body).toEqual({ detail: BILLING_MESSAGES.noActiveSubscription });
    expect(await stats(other)).toMatchObject({ plan: 'free', subscription_id: null, current_period_end: null });
    expect(await stats(owner)).toMatchObject({ plan: 'basic', subscription_id: subscriptionId, cancel_at_period_end: false });

    for (const [method, path] of [
      ['POST', '/api/stripe/create-checkout-session'],
      ['POST', '/api/stripe/confirm-plan-change'],
      ['POST', '/api/stripe/cancel-subscription'],
      ['GET', '/api/profile/stats'],
    ]) {
      expect((await server.http.request(method, path, { body: method === 'POST' ? {} : undefined })).status).toBe(401);
    }
  });

  it('validates the requests and names the field', async () => {
    const user = await signUpAndLogin(server);
    const badPlan = await server.http.post('/api/stripe/create-checkout-session', { plan: 'gold', interval: 'annual' }, as(user));
    expect(badPlan.status).toBe(422);
    expect(badPlan.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'plan'], msg: BILLING_MESSAGES.planRequired })]);
    const badInterval = await server.http.post('/api/stripe/create-checkout-session', { plan: 'basic', interval: 'weekly' }, as(user));
    expect(badInterval.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'interval'], msg: BILLING_MESSAGES.intervalRequired })]);
    const missingId = await server.http.post('/api/stripe/confirm-plan-change', { plan: 'basic', interval: 'annual' }, as(user));
    expect(missingId.status).toBe(422);
    expect(missingId.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'subscription_id'] })]);
    const badCancel = await server.http.post('/api/stripe/cancel-subscription', { at_period_end: 'soon' }, as(user));
    expect(badCancel.status).toBe(422);
    const free = await server.http.post('/api/stripe/cancel-subscription', undefined, as(user));
    expect(free.status).toBe(400);
    expect(free.body).toEqual({ detail: BILLING_MESSAGES.noActiveSubscription });
  });

  it('deleting the account ends its paid subscription at once', async () => {
    const user = await signUpAndLogin(server);
    const subscriptionId = await subscribe(user, 'basic', 'monthly');
    const before = stripe.deliveries.length;
    const res = await server.http.delete('/api/account', as(user));
    expect(res.status).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    await stripe.settle();
    // The deletion event arrives for a customer that is no longer ours: acknowledged.
    expect(stripe.deliveries.slice(before).map((d) => [d.type, d.status])).toEqual([['customer.subscription.deleted', 200]]);
  });

  it('an operator-set plan shows as active without a subscription', async () => {
    const user = await signUpAndLogin(server);
    await setPlan(server, user.userId, 'pro');
    expect(await stats(user)).toMatchObject({ plan: 'pro', subscription_status: 'active', subscription_id: null });
  });

  describe('without STRIPE_SECRET_KEY', () => {
    let plain: TestServer;
    let user: SignedInAccount;

    beforeAll(async () => {
      plain = await startTestServer({}, server.database);
      user = await signUpAndLogin(plain);
    });

    afterAll(async () => {
      await plain?.close();
    });

    it('answers 503 on every billing call, and the profile stats still answer', async () => {
      for (const [path, body] of [
        ['/api/stripe/create-checkout-session', { plan: 'pro', interval: 'annual' }],
        ['/api/stripe/confirm-plan-change', { plan: 'pro', interval: 'annual', subscription_id: 'sub_x' }],
        ['/api/stripe/cancel-subscription', {}],
        ['/api/stripe/webhook', { id: 'evt_x' }],
      ] as const) {
        const res = await plain.http.post(path, body, as(user));
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ detail: 'Billing is not configured on this server' });
      }
      const res = await plain.http.get<ProfileStats>('/api/profile/stats', as(user));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ plan: 'free', billing_enabled: false });
    });
  });
});
