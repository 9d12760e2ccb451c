import type { Page } from 'playwright-core';
import { latestMailedCode, signUpAndLogin } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { launchBrowser, screenshot, type Browser } from './support/browser';
import { fakeJwt, setSessionCookies } from './support/session-cookies';
import { buildWebApp } from './support/web-build';

// Jest reads testTimeout only from the top-level config, not from a project entry.
jest.setTimeout(60_000);

/** Sign-in screens against the real backend on its own database, in Chromium. */
describe('sign-in screens (browser)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp() });
    browser = await launchBrowser(server.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
    page = await browser.newPage();
  });
  afterEach(async () => page?.close());

  it('signs up, verifies with the mailed code, signs in and lands on the dashboard', async () => {
    const email = `ada-${Date.now()}@example.test`;
    await page.goto('/signup');
    await screenshot(page, 'signup');
    const submit = page.getByRole('button', { name: 'Create Account' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Full Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Password').fill('correct-horse-battery');
    expect(await submit.isDisabled()).toBe(false);
    await submit.click();

    await page.waitForURL(`**/verify?email=${encodeURIComponent(email)}`);
    await page.getByText(email).waitFor();
    await screenshot(page, 'verify');
    const verify = page.getByRole('button', { name: 'Verify Email' });
    expect(await verify.isDisabled()).toBe(true);
    expect(await page.getByLabel('Verification code').getAttribute('maxlength')).toBe('6');
    await page.getByLabel('Verification code').fill(await latestMailedCode(server, email));
    await verify.click();
    await page.getByText('Email verified. Redirecting to sign in...').waitFor();

    await page.waitForURL(`**/login?email=${encodeURIComponent(email)}`);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await screenshot(page, 'login');
    const signIn = page.getByRole('button', { name: 'Sign In' });
    expect(await signIn.isDisabled()).toBe(true);
    await page.getByLabel('Password').fill('correct-horse-battery');
    await signIn.click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: /Ada Lovelace/ }).waitFor();
    await page.getByText('Connected').waitFor();
  });

  it('shows the server message for wrong credentials and keeps the user on /login', async () => {
    const account = await signUpAndLogin(server);
    await page.goto(`/login?email=${encodeURIComponent(account.email)}`);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.locator('.alert').filter({ hasText: 'Incorrect email or password' }).waitFor();
    await screenshot(page, 'login-error');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('shows a wrong verification code and resends a new one', async () => {
    const email = `grace-${Date.now()}@example.test`;
    expect((await server.http.post('/api/auth/signup', { name: 'Grace', email, password: 'correct-horse-battery' })).status).toBe(201);
    await page.goto(`/verify?email=${encodeURIComponent(email)}`);
    await page.getByLabel('Verification code').fill('000000');
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByRole('button', { name: 'Resend verification code' }).click();
    await page.getByText(`A new code was sent to ${email}.`).waitFor();
  });

  it('sends /verify without an address to /signup', async () => {
    await page.goto('/verify');
    await page.waitForURL('**/signup');
  });

  // Opening /dashboard with an expired identity token is turned away by the host guard (server and app), which
  // clears the session with its own message; 'Session expired. Please log in again.' belongs to the dashboard's
  // periodic expiry check of an open dashboard (use-session-expiry.spec.tsx), which never starts here.
  it('sends an expired session from /dashboard to /login with the session-expired message', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    await setSessionCookies(browser.context, server.baseUrl, {
      accessToken: 'expired',
      idToken: fakeJwt({ sub: 'u1', email: 'old@example.test', name: 'Old', exp: past }),
    });
    await page.goto('/dashboard');
    await page.waitForURL('**/login?error=*');
    await page.locator('.alert').filter({ hasText: 'Your session has expired. Please login again.' }).waitFor();
    await screenshot(page, 'login-session-expired');
    const cookies = await browser.context.cookies();
    expect(cookies.find((c) => c.name === 'idToken')).toBeUndefined();
  });

  it('ends the session when the API answers 401 and says so on /login', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    await setSessionCookies(browser.context, server.baseUrl, {
      accessToken: 'not-a-valid-access-token',
      idToken: fakeJwt({ sub: 'u1', email: 'mallory@example.test', exp: future }),
    });
    await page.goto('/dashboard');
    await page.waitForURL('**/login?error=*');
    await page.locator('.alert').filter({ hasText: 'Your session has expired. Please login again.' }).waitFor();
    expect((await browser.context.cookies()).find((c) => c.name === 'accessToken')).toBeUndefined();
  });

  it('shows the failure of a social callback without a code, then returns to login', async () => {
    await page.goto('/auth/callback');
    await page.getByRole('heading', { name: 'Authentication Failed' }).waitFor();
    await page.getByText('Redirecting to login page...').waitFor();
    await screenshot(page, 'auth-callback-failed');
    await page.waitForURL('**/login?error=*');
    await page.locator('.alert').filter({ hasText: 'Authentication failed: No authorization code found' }).waitFor();
  });

  it('logs out from the user menu and clears the session cookies', async () => {
    const account = await signUpAndLogin(server, { name: 'Linus Torvalds' });
    await setSessionCookies(browser.context, server.baseUrl, account);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: /Linus Torvalds/ }).click();
    await screenshot(page, 'user-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    const names = (await browser.context.cookies()).map((c) => c.name);
    expect(names).not.toContain('accessToken');
    expect(names).not.toContain('idToken');
  });
});
