import type { CheckoutResponse } from '@cronbeam/shared/billing/billing-types';
import { BILLING_MESSAGES } from '@cronbeam/shared/billing/billing-types';
import { StripeStandIn } from '../fakes/stripe-server';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, sql } from './jobs-fixtures';
import type { AuditEvent } from '@cronbeam/shared/audit/audit';

jest.setTimeout(120_000);

describe('a team account on a paid plan: its plan changes in the audit log, and deleting it (DELETE /api/accounts/{id})', () => {
  let stripe: StripeStandIn;
  let server: TestServer;

  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    stripe.seedPrices();
    server = await startTestServer({ ...stripe.serverEnv(), PUBLIC_URL: 'http://app.cronbeam.test' });
    stripe.webhookUrl = `${server.baseUrl}/api/stripe/webhook`;
  });

  afterEach(async () => {
    stripe.outage = false;
    stripe.autoDeliver = true;
    await stripe.settle();
  });

  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  const inAccount = (user: SignedInAccount, accountId: string) => ({ token: user.accessToken, headers: { 'x-cronbeam-account': accountId } });

  /** A team account of `owner` on the basic plan, paid through the stand-in, with one job. */
  async function paidTeam(owner: SignedInAccount): Promise<{ teamId: string; subscriptionId: string }> {
    const created = await server.http.post('/api/accounts', { name: 'Paying team' }, { token: owner.accessToken });
    expect(created.status).toBe(200);
    const teamId: string = created.body.id;
    const checkout = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'basic', interval: 'monthly' }, inAccount(owner, teamId));
    expect(checkout.status).toBe(200);
    if (!('checkout_url' in checkout.body)) throw new Error(`expected a checkout URL, got ${checkout.text}`);
    const subscription = stripe.payCheckout(new URL(checkout.body.checkout_url).pathname.split('/').pop()!);
    await stripe.settle();
    expect((await server.http.get('/api/profile/stats', inAccount(owner, teamId))).body).toMatchObject({ plan: 'basic', subscription_status: 'active' });
    expect((await server.http.post('/api/jobs', jobDefinition(), inAccount(owner, teamId))).status).toBe(200);
    return { teamId, subscriptionId: subscription.id as string };
  }

  const jobsOf = async (accountId: string) => (await sql<{ n: number }>(server, `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1`, [accountId]))[0]!.n;
  const accountExists = async (accountId: string) => (await sql(server, `SELECT 1 FROM accounts WHERE id = $1`, [accountId])).length === 1;

  const entriesIn = (accountId: string, action: string) =>
    sql<AuditEvent>(server, `SELECT actor_user_id, actor_key_id, actor_ip, request_id, action, target_type, target_id, changes FROM audit_events WHERE account_id = $1 AND action = $2 ORDER BY id`, [accountId, action]);
  const entriesOf = (answer: { headers: Headers }) => sql<AuditEvent>(server, `SELECT action, actor_user_id, changes FROM audit_events WHERE request_id = $1`, [answer.headers.get('x-request-id')]);

  it('records a plan change Stripe\'s webhook applies once, as Stripe (no actor); a replayed event writes nothing', async () => {
    const owner = await signUpAndLogin(server);
    const { teamId, subscriptionId } = await paidTeam(owner);
    // Three events (subscription created, invoice paid, checkout completed) carry the same subscription: the first applied changes it, the others nothing.
    const [entry, ...more] = await entriesIn(teamId, 'subscription.changed_by_stripe');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actor_user_id: null, actor_key_id: null, actor_ip: null, target_type: 'subscription', target_id: subscriptionId });
    expect(entry!.request_id).toEqual(expect.any(String));
    expect(entry!.changes).toMatchObject({
      plan: { before: 'free', after: 'basic' },
      status: { before: null, after: 'active' },
      subscription_plan: { before: null, after: 'basic' },
      interval: { before: null, after: 'monthly' },
      cancel_at_period_end: { before: null, after: false },
    });
    // Nothing of the payment (customer, card, invoice) is in it.
    expect(JSON.stringify(entry)).not.toMatch(/cus_|in_|pm_/);

    // A replay of the event that made the change is not applied again: the stored state a test changed stays, and no entry is added.
    await sql(server, `UPDATE billing_subscriptions SET stripe_status = 'past_due' WHERE stripe_subscription_id = $1`, [subscriptionId]);
    const created = stripe.eventsOf('customer.subscription.created').find((e) => (e.data.object as { id: string }).id === subscriptionId)!;
    const replay = await stripe.deliver(created);
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual({ received: true, duplicate: true });
    expect(await sql(server, `SELECT stripe_status FROM billing_subscriptions WHERE stripe_subscription_id = $1`, [subscriptionId])).toEqual([{ stripe_status: 'past_due' }]);
    expect(await entriesIn(teamId, 'subscription.changed_by_stripe')).toHaveLength(1);

    // A renewal changes the period: one more entry, the plan unchanged.
    stripe.renew(subscriptionId);
    await stripe.settle();
    const entries = await entriesIn(teamId, 'subscription.changed_by_stripe');
    expect(entries).toHaveLength(2);
    expect(entries[1]!.changes).not.toHaveProperty('plan');
    expect(entries[1]!.changes).toMatchObject({ status: { before: 'past_due', after: 'active' }, current_period_end: { before: expect.any(String), after: expect.any(String) } });
  });

  it('records a member\'s plan change and cancellation as theirs, one entry each; a refused one leaves none', async () => {
    const owner = await signUpAndLogin(server);
    const { teamId, subscriptionId } = await paidTeam(owner);
    const upgraded = await server.http.post('/api/stripe/confirm-plan-change', { plan: 'pro', interval: 'monthly', subscription_id: subscriptionId }, inAccount(owner, teamId));
    expect(upgraded.status).toBe(200);
    const [change, ...more] = await entriesOf(upgraded);
    expect(more).toEqual([]);
    // Against what the request read, even when Stripe's webhook for this change stored it first.
    expect(change).toMatchObject({
      action: 'subscription.plan_changed',
      actor_user_id: owner.userId,
      changes: { plan: { before: 'basic', after: 'pro' }, subscription_plan: { before: 'basic', after: 'pro' } },
    });
    await stripe.settle();

    const refused = await server.http.post('/api/stripe/confirm-plan-change', { plan: 'pro', interval: 'monthly', subscription_id: subscriptionId }, inAccount(owner, teamId));
    expect(refused.status).toBe(400);
    expect(await entriesOf(refused)).toEqual([]);
    const other = await signUpAndLogin(server);
    const notTheirs = await server.http.post('/api/stripe/confirm-plan-change', { plan: 'basic', interval: 'monthly', subscription_id: subscriptionId }, { token: other.accessToken });
    expect(notTheirs.status).toBe(404);
    expect(await entriesOf(notTheirs)).toEqual([]);

    const cancelled = await server.http.post('/api/stripe/cancel-subscription', {}, inAccount(owner, teamId));
    expect(cancelled.status).toBe(200);
    const [cancellation, ...others] = await entriesOf(cancelled);
    expect(others).toEqual([]);
    expect(cancellation).toEqual({ action: 'subscription.cancelled', actor_user_id: owner.userId, changes: { cancel_at_period_end: { before: false, after: true } } });
  });

  it('records the jobs a smaller plan pauses in the entry of the change that made it smaller; Stripe\'s event for the same change adds none', async () => {
    const owner = await signUpAndLogin(server);
    const { teamId, subscriptionId } = await paidTeam(owner);
    for (let i = 0; i < 2; i += 1) expect((await server.http.post('/api/jobs', jobDefinition(), inAccount(owner, teamId))).status).toBe(200);
    const newest = (await sql<{ id: string }>(server, `SELECT id FROM jobs WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [teamId]))[0]!.id;
    // Stripe's events wait, so that the request applies the cancellation first.
    stripe.autoDeliver = false;
    const firstEvent = stripe.events.length;
    const cancelled = await server.http.post('/api/stripe/cancel-subscription', { at_period_end: false }, inAccount(owner, teamId));
    expect(cancelled.status).toBe(200);
    const [entry, ...more] = await entriesOf(cancelled);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'subscription.cancelled',
      actor_user_id: owner.userId,
      changes: { plan: { before: 'basic', after: 'free' }, status: { before: 'active', after: 'canceled' }, paused_job_ids: { before: null, after: [newest] } },
    });
    const stripeEntries = (await entriesIn(teamId, 'subscription.changed_by_stripe')).length;
    for (const event of stripe.events.slice(firstEvent)) expect((await stripe.deliver(event)).status).toBe(200);
    expect(await entriesIn(teamId, 'subscription.changed_by_stripe')).toHaveLength(stripeEntries);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
  });

  it('records the jobs a bigger plan lets run again in the entry of the change that made it bigger: Stripe\'s for a first checkout, the member\'s for an upgrade', async () => {
    const owner = await signUpAndLogin(server);
    const created = await server.http.post('/api/accounts', { name: 'Held team' }, { token: owner.accessToken });
    expect(created.status).toBe(200);
    const teamId: string = created.body.id;
    const job = await server.http.post('/api/jobs', jobDefinition(), inAccount(owner, teamId));
    expect(job.status).toBe(200);
    const statusOf = async (jobId: string) => (await server.http.get(`/api/jobs/${jobId}`, inAccount(owner, teamId))).body.status;
    // The quota stopped the job, as the scheduler does when the period's executions are used up.
    const hold = (jobId: string) => sql(server, `UPDATE jobs SET status = 'quota_reached', next_run_at = NULL WHERE id = $1`, [jobId]);
    await hold(job.body.job_id);

    // Stripe's webhook applies the first checkout: free to basic resumes the held job, and its entry names it.
    const checkout = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'basic', interval: 'monthly' }, inAccount(owner, teamId));
    if (!('checkout_url' in checkout.body)) throw new Error(`expected a checkout URL, got ${checkout.text}`);
    const subscription = stripe.payCheckout(new URL(checkout.body.checkout_url).pathname.split('/').pop()!);
    await stripe.settle();
    const [byStripe, ...more] = await entriesIn(teamId, 'subscription.changed_by_stripe');
    expect(more).toEqual([]);
    expect(byStripe!.changes).toMatchObject({ plan: { before: 'free', after: 'basic' }, resumed_job_ids: { before: null, after: [job.body.job_id] } });
    expect(await statusOf(job.body.job_id)).toBe('scheduled');

    // A member's upgrade: its own entry names the job it let run again; Stripe's events for the same change add none.
    await hold(job.body.job_id);
    // Stripe's events wait, so that the request applies the upgrade first.
    stripe.autoDeliver = false;
    const firstEvent = stripe.events.length;
    const upgraded = await server.http.post('/api/stripe/confirm-plan-change', { plan: 'pro', interval: 'monthly', subscription_id: subscription.id }, inAccount(owner, teamId));
    expect(upgraded.status).toBe(200);
    const [byMember, ...others] = await entriesOf(upgraded);
    expect(others).toEqual([]);
    expect(byMember).toMatchObject({
      action: 'subscription.plan_changed',
      actor_user_id: owner.userId,
      changes: { plan: { before: 'basic', after: 'pro' }, resumed_job_ids: { before: null, after: [job.body.job_id] } },
    });
    expect(await statusOf(job.body.job_id)).toBe('scheduled');
    for (const event of stripe.events.slice(firstEvent)) expect((await stripe.deliver(event)).status).toBe(200);
    expect((await entriesIn(teamId, 'subscription.changed_by_stripe')).filter((e) => 'resumed_job_ids' in e.changes)).toHaveLength(1);
  });

  it('records a new paid period as Stripe\'s: the execution count it replaced and the jobs it lets run again; a period that changes nothing writes none', async () => {
    const owner = await signUpAndLogin(server);
    const { teamId, subscriptionId } = await paidTeam(owner);
    // The first period (the checkout's invoice) found nothing used and nothing held.
    expect(await entriesIn(teamId, 'subscription.period_started')).toEqual([]);
    const [job] = await sql<{ id: string }>(server, `SELECT id FROM jobs WHERE account_id = $1`, [teamId]);
    // This month's executions are used up and the quota stopped the job, as the scheduler does.
    await sql(server, `UPDATE jobs SET status = 'quota_reached', next_run_at = NULL WHERE id = $1`, [job!.id]);
    const month = `${new Date().toISOString().slice(0, 8)}01`;
    await sql(server, `INSERT INTO usage_periods (account_id, period_start, executions) VALUES ($1, $2, 1500) ON CONFLICT (account_id, period_start) DO UPDATE SET executions = 1500`, [teamId, month]);

    stripe.renew(subscriptionId);
    await stripe.settle();
    const [entry, ...more] = await entriesIn(teamId, 'subscription.period_started');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      actor_user_id: null,
      actor_key_id: null,
      target_type: 'subscription',
      target_id: subscriptionId,
      changes: { executions_used: { before: 1500, after: 0 }, resumed_job_ids: { before: null, after: [job!.id] } },
    });
    expect(entry!.request_id).toEqual(expect.any(String));
    expect((await server.http.get(`/api/jobs/${job!.id}`, inAccount(owner, teamId))).body.status).toBe('scheduled');
    expect((await server.http.get('/api/dashboard', inAccount(owner, teamId))).body).toMatchObject({ executions_used: 0 });

    // The next period: nothing used, nothing held, no entry.
    stripe.renew(subscriptionId);
    await stripe.settle();
    expect(await entriesIn(teamId, 'subscription.period_started')).toHaveLength(1);
  });

  it('cancels the subscription at Stripe at once, then deletes the account with its jobs', async () => {
    const owner = await signUpAndLogin(server);
    const { teamId, subscriptionId } = await paidTeam(owner);
    expect(await jobsOf(teamId)).toBe(1);
    const res = await server.http.delete(`/api/accounts/${teamId}`, { token: owner.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Account deleted' });
    expect(stripe.calls).toContain(`DELETE /subscriptions/${subscriptionId}`);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(await accountExists(teamId)).toBe(false);
    expect(await jobsOf(teamId)).toBe(0);
    // The owner's personal account and its plan are untouched.
    expect((await server.http.get('/api/profile/stats', { token: owner.accessToken })).body).toMatchObject({ plan: 'free' });
  });

  it('deletes nothing while Stripe fails, answering 503 as a user deletion does; a retry once Stripe is back deletes it', async () => {
    const owner = await signUpAndLogin(server);
    const { teamId, subscriptionId } = await paidTeam(owner);
    stripe.outage = true;
    const refused = await server.http.delete(`/api/accounts/${teamId}`, { token: owner.accessToken });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ detail: BILLING_MESSAGES.providerUnavailable });
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('active');
    expect(await accountExists(teamId)).toBe(true);
    expect(await jobsOf(teamId)).toBe(1);
    expect((await server.http.get(`/api/accounts/${teamId}`, { token: owner.accessToken })).status).toBe(200);

    stripe.outage = false;
    expect((await server.http.delete(`/api/accounts/${teamId}`, { token: owner.accessToken })).status).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(await accountExists(teamId)).toBe(false);
  });

  it('the personal account is refused (409) before anything reaches Stripe: its subscription stays', async () => {
    const owner = await signUpAndLogin(server);
    const checkout = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'basic', interval: 'monthly' }, { token: owner.accessToken });
    if (!('checkout_url' in checkout.body)) throw new Error(`expected a checkout URL, got ${checkout.text}`);
    const subscription = stripe.payCheckout(new URL(checkout.body.checkout_url).pathname.split('/').pop()!);
    await stripe.settle();
    const res = await server.http.delete(`/api/accounts/${owner.userId}`, { token: owner.accessToken });
    expect(res.status).toBe(409);
    expect(stripe.subscriptions.get(subscription.id as string)!.status).toBe('active');
    expect(await accountExists(owner.userId)).toBe(true);
  });
});
