import type { CheckoutResponse } from '@cronbeam/shared/billing/billing-types';
import { BILLING_MESSAGES } from '@cronbeam/shared/billing/billing-types';
import { StripeStandIn } from '../fakes/stripe-server';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, sql } from './jobs-fixtures';

jest.setTimeout(120_000);

describe('deleting a team account on a paid plan (DELETE /api/accounts/{id})', () => {
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
