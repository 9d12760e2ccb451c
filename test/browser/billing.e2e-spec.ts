import type { Page } from 'playwright-core';
import type { CheckoutResponse, ProfileStats } from '@cronbeam/shared/billing/billing-types';
import { StripeStandIn } from '../fakes/stripe-server';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { launchBrowser, screenshot, type Browser } from './support/browser';
import { setSessionCookies } from './support/session-cookies';
import { buildWebApp } from './support/web-build';

// Jest reads testTimeout only from the top-level config, not from a project entry.
jest.setTimeout(90_000);

/** The address the server puts into Stripe's return URLs; the browser is sent on from it to the test server. */
const PUBLIC_URL = 'http://cronbeam.test';

/** Pricing, checkout on the Stripe stand-in, the result pages and the profile, in Chromium against the real app. */
describe('pricing, checkout and profile (browser)', () => {
  let stripe: StripeStandIn;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let account: SignedInAccount;

  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    stripe.seedPrices();
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp(), PUBLIC_URL, ...stripe.serverEnv() });
    stripe.webhookUrl = `${server.baseUrl}/api/stripe/webhook`;
    browser = await launchBrowser(server.baseUrl);
    await browser.context.route(`${PUBLIC_URL}/**`, (route) => {
      const url = new URL(route.request().url());
      return route.fulfill({ status: 302, headers: { location: `${server.baseUrl}${url.pathname}${url.search}` } });
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stripe?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
    account = await signUpAndLogin(server, { name: 'Grace Hopper' });
    page = await browser.newPage();
  });
  afterEach(async () => page?.close());

  const stats = async (): Promise<ProfileStats> => (await server.http.get<ProfileStats>('/api/profile/stats', { token: account.accessToken })).body;
  const card = (name: string) => page.getByRole('article', { name });

  it('signed out, a paid plan asks to log in and comes back to pricing', async () => {
    await page.goto('/pricing');
    await card('Basic').getByRole('button', { name: 'Get Basic' }).click();
    await page.waitForURL('**/login?redirect=pricing');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/pricing');
    await card('Free').getByRole('button', { name: 'Current Plan' }).waitFor();
  });

  it('goes from free to pro: pricing → Stripe checkout → success → the dashboard shows the new plan', async () => {
    await setSessionCookies(browser.context, server.baseUrl, account);
    await page.goto('/pricing');
    expect(await page.getByRole('button', { name: /Annually/ }).getAttribute('aria-pressed')).toBe('true');
    await page.getByText('Save up to 38%').waitFor();
    expect(await card('Pro').textContent()).toContain('$37');
    expect(await card('Pro').textContent()).toContain('$444 billed annually · save 38%');
    expect(await card('Basic').textContent()).toContain('save 19%');
    await screenshot(page, 'pricing');
    await page.getByRole('button', { name: 'Monthly', exact: true }).click();
    expect(await card('Pro').textContent()).toContain('$59.9');
    expect(await card('Basic').textContent()).toContain('$9.8');
    await page.getByRole('button', { name: /Annually/ }).click();

    await card('Pro').getByRole('button', { name: 'Get Pro' }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    expect(await page.getByText('pro_annual: 444.00 USD').count()).toBe(1);
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL(`${server.baseUrl}/success?session_id=*`);
    await page.getByRole('heading', { name: 'Subscription Successful!' }).waitFor();
    await page.getByText(/Redirecting to your dashboard in \d seconds?/).waitFor();
    await screenshot(page, 'checkout-success');
    // The countdown takes the browser to the dashboard on its own.
    await page.waitForURL(`${server.baseUrl}/dashboard`, { timeout: 15_000 });
    await page.locator('.plan-badge').filter({ hasText: 'Pro' }).waitFor();
    expect(await page.getByRole('link', { name: 'Get more Jobs & Executions' }).count()).toBe(0);
    expect(await stats()).toMatchObject({ plan: 'pro', subscription_status: 'active', interval: 'annual' });

    // A paying customer picking another plan is asked to confirm.
    await page.goto('/pricing');
    await card('Pro').getByRole('button', { name: 'Current Plan' }).waitFor();
    await card('Basic').getByRole('button', { name: 'Get Basic' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Subscription Plan' });
    await dialog.waitFor();
    await screenshot(page, 'pricing-change-plan');
    await dialog.getByRole('button', { name: 'Keep Current Plan' }).click();
    expect(await dialog.count()).toBe(0);
    expect((await stats()).plan).toBe('pro');
  });

  it('the checkout page can be left: /cancel says nothing was charged', async () => {
    await setSessionCookies(browser.context, server.baseUrl, account);
    await page.goto('/pricing');
    await card('Basic').getByRole('button', { name: 'Get Basic' }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(`${server.baseUrl}/cancel`);
    await page.getByRole('heading', { name: 'Subscription Cancelled...' }).waitFor();
    await page.getByText('No charges have been made').waitFor();
    await screenshot(page, 'checkout-cancel');
    await page.getByRole('link', { name: 'Try Again' }).click();
    await page.waitForURL('**/pricing');
    expect((await stats()).plan).toBe('free');
  });

  it('cancels at the period end on the profile: the plan stays, access until the period end is shown', async () => {
    const res = await server.http.post<CheckoutResponse>('/api/stripe/create-checkout-session', { plan: 'basic', interval: 'monthly' }, { token: account.accessToken });
    const subscription = stripe.payCheckout(new URL((res.body as { checkout_url: string }).checkout_url).pathname.split('/').pop()!);
    await stripe.settle();
    const periodEnd = subscription.items.data[0].current_period_end as number;
    const endText = new Date(periodEnd * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

    await setSessionCookies(browser.context, server.baseUrl, account);
    await page.goto('/profile');
    expect(await page.getByTestId('account-user-id').textContent()).toBe(account.userId);
    await page.getByTestId('profile-plan').filter({ hasText: 'Basic' }).waitFor();
    expect(await page.getByTestId('profile-status').textContent()).toBe('Active');
    await page.getByText(endText).waitFor();
    await screenshot(page, 'profile');

    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await page.getByRole('dialog', { name: 'Cancel Subscription' }).getByRole('button', { name: 'Yes, Cancel' }).click();
    await page.getByTestId('profile-access-until').filter({ hasText: `Access until ${endText}` }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(0);
    expect(await page.getByTestId('profile-plan').textContent()).toBe('Basic');
    expect(await stats()).toMatchObject({ plan: 'basic', cancel_at_period_end: true, current_period_end: periodEnd });

    // After a reload the same state comes from the server.
    await page.reload();
    await page.getByTestId('profile-access-until').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(0);
  });

  it('generates an API key (shown once, copied), lists it and deletes it after confirmation', async () => {
    await setSessionCookies(browser.context, server.baseUrl, account);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Generate New API Key' }).click();
    const naming = page.getByRole('dialog', { name: 'Generate New API Key' });
    await naming.getByRole('button', { name: 'Generate' }).click();
    await naming.getByText('Please enter a name for the API key').waitFor();
    await naming.getByLabel('Key name').fill('  ci pipeline  ');
    await naming.getByRole('button', { name: 'Generate' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.waitFor();
    const key = (await shown.getByTestId('new-api-key').textContent())!;
    expect(key).toMatch(/^cb_live_/);
    expect(await shown.getByTestId('new-api-key-user-id').textContent()).toBe(account.userId);
    await screenshot(page, 'profile-api-key');
    await shown.getByRole('button', { name: 'Copy API key' }).click();
    await page.getByText('API key copied to clipboard').waitFor();
    // Runs in the page, where `navigator` exists; the test's own types are Node's.
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await shown.getByRole('button', { name: 'I have saved it' }).click();

    // The key works on the public API.
    const ping = await server.http.get('/prog/jobs', { headers: { 'x-api-key': key, 'x-user-id': account.userId } });
    expect(ping.status).toBe(200);

    const row = page.getByRole('row').filter({ hasText: 'ci pipeline' });
    await row.waitFor();
    expect(await row.textContent()).not.toContain(key);
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await row.getByRole('button', { name: 'Delete API key ci pipeline' }).click();
    await page.getByText('No API keys yet.').waitFor();
    expect(questions).toEqual(['Are you sure you want to delete the API key "ci pipeline"? This action cannot be undone.']);
    expect((await server.http.get('/prog/jobs', { headers: { 'x-api-key': key, 'x-user-id': account.userId } })).status).toBe(401);
  });
});
