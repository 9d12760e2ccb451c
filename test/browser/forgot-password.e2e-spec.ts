import type { Page } from 'playwright-core';
import { newPasswordSchema } from '@cronbeam/shared/auth/auth-schemas';
import { latestMailedCode, type SignedInAccount } from '../support/accounts';
import type { TestServer } from '../support/test-server';
import { openAppPage, type AppPage } from './support/app-page';
import { screenshot } from './support/browser';

jest.setTimeout(90_000);

/** 'Forgot Password?' on the login screen leads through request, code and new password back to sign-in. */
describe('password reset screens (browser)', () => {
  let server: TestServer;
  let app: AppPage;
  let page: Page;
  let account: SignedInAccount;

  beforeAll(async () => {
    app = await openAppPage({ name: 'Reset Tester', signedIn: false });
    ({ server, page, account } = app);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it('requests a code, refuses a weak password as typed, sets a new one and signs in with it', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL(/\/forgot-password\?email=/);
    expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByText(`If an account exists for ${account.email}, a reset code was sent to it.`).waitFor();

    const code = await latestMailedCode(server, account.email);
    await page.getByLabel('Reset code').fill(code);
    await page.getByLabel('New password').fill('short');
    const weak = newPasswordSchema.safeParse('short').error!.issues[0]!.message;
    await page.getByText(weak).waitFor();
    expect(await page.getByRole('button', { name: 'Set new password' }).isDisabled()).toBe(true);

    const fresh = 'Brand-new-Passw0rd!';
    await page.getByLabel('New password').fill(fresh);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Password has been reset. Redirecting to sign in...').waitFor();
    await screenshot(page, 'password-reset-done');
    await page.waitForURL(/\/login\?email=/, { timeout: 10_000 });

    const login = await server.http.post('/api/auth/login', { email: account.email, password: fresh });
    expect(login.status).toBe(200);
    expect(login.body.access_token).toBeTruthy();
  });

  it('shows the server’s message for a wrong code', async () => {
    await page.goto(`/forgot-password?email=${encodeURIComponent(account.email)}`);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByLabel('Reset code').fill('000000');
    await page.getByLabel('New password').fill('Another-Passw0rd!');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: /code/i }).waitFor();
    expect(page.url()).toContain('/forgot-password');
  });
});
