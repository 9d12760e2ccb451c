import type { Page } from 'playwright-core';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { Authenticator } from '../support/totp-authenticator';
import { launchBrowser, screenshot, type Browser } from './support/browser';
import { buildWebApp } from './support/web-build';
import { TEST_ADMIN_TOKEN } from '../api/jobs-fixtures';

jest.setTimeout(240_000);

/**
 * Two-factor sign-in in Chromium against the real backend: turning it on from
 * the profile (the secret read off the page, the code computed like an
 * authenticator app), signing in with a code, a remembered device and a
 * recovery code, and forgetting the device.
 */
describe('two-factor sign-in (browser)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let account: SignedInAccount;
  let app: Authenticator;
  let recoveryCodes: string[];
  const foreignRequests: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp(), ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    browser = await launchBrowser(server.baseUrl);
    account = await signUpAndLogin(server, { name: 'Grace Hopper' });
    page = await browser.newPage();
    // The QR code holds the secret: it must be drawn in the page, never fetched from anywhere.
    page.on('request', (request) => {
      if (!request.url().startsWith(server.baseUrl) && !request.url().startsWith('data:')) foreignRequests.push(request.url());
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The device key this browser keeps for the account (an expression run in the page). */
  const storedDeviceKey = () => `localStorage.getItem(${JSON.stringify(`cronbeam.deviceKey.${account.email.toLowerCase()}`)})`;

  async function signOutLocally(): Promise<void> {
    await browser.context.clearCookies();
    await page.goto('/login');
  }

  async function passwordStep(): Promise<void> {
    await page.goto(`/login?email=${encodeURIComponent(account.email)}`);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  }

  it('turns two-factor on from the profile with the secret shown on the page', async () => {
    await passwordStep();
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Account Security' }).waitFor();
    await page.getByTestId('two-factor-status').getByText('Off').waitFor();
    await page.getByRole('button', { name: 'Set Up Two-Factor' }).click();

    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const qr = page.getByAltText('QR code for your authenticator app');
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, 'account-security-setup');

    app = new Authenticator(secret);
    await page.getByLabel('Code from your authenticator app').fill(await app.nextCode());
    await page.getByRole('button', { name: 'Turn On' }).click();
    const list = page.getByTestId('recovery-codes').locator('li');
    await list.nth(9).waitFor();
    recoveryCodes = await list.allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    await screenshot(page, 'account-security-recovery-codes');
    await page.getByRole('button', { name: 'I Saved Them' }).click();
    await page.getByTestId('two-factor-status').getByText('10 recovery codes left.', { exact: false }).waitFor();
    await screenshot(page, 'account-security-on');
    expect(foreignRequests).toEqual([]);
  });

  it('asks for the code after the password, refuses a wrong one, and remembers the device when asked', async () => {
    await signOutLocally();
    await passwordStep();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await screenshot(page, 'login-two-factor');

    const code = await app.nextCode();
    await page.getByLabel('Authentication code').fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').getByText('Invalid verification code provided, please try again.').waitFor();
    await screenshot(page, 'login-two-factor-wrong-code');

    await page.getByLabel('Authentication code').fill(code);
    await page.getByLabel('Remember this device for 30 days').check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');

    // Signed out and in again: the remembered device skips the code.
    await signOutLocally();
    await passwordStep();
    await page.waitForURL('**/dashboard');
  });

  it('signs in with a recovery code', async () => {
    await page.evaluate('localStorage.clear()');
    await signOutLocally();
    await passwordStep();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
    await screenshot(page, 'login-recovery-code');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
  });

  it('lists and forgets remembered devices; a forgotten device is asked for the code again', async () => {
    await signOutLocally();
    await passwordStep();
    await page.getByLabel('Authentication code').fill(await app.nextCode());
    await page.getByLabel('Remember this device for 30 days').check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');

    await page.goto('/profile');
    const devices = page.locator('.device-row');
    await devices.first().waitFor();
    expect(await devices.count()).toBe(2); // the first remembered key was cleared from this browser, but the server still knows it
    expect(await devices.first().innerText()).toContain('Chrome on Linux');
    await screenshot(page, 'account-security-devices');
    for (let left = 2; left > 0; left--) {
      await devices.first().getByRole('button', { name: /Forget/ }).click();
      await devices.nth(left - 1).waitFor({ state: 'detached' });
    }
    await page.getByText('No remembered devices.').waitFor();
    const storedKey = await page.evaluate(storedDeviceKey());
    expect(storedKey).toEqual(expect.any(String));

    await signOutLocally();
    await passwordStep();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    expect(await page.evaluate(storedDeviceKey())).toBeNull();
  });

  it('regenerates the recovery codes and turns two-factor off from the profile', async () => {
    // Recovery codes all the way: an authenticator shows only a few usable codes a minute.
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[1]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Regenerate Recovery Codes' }).click();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]); // used at sign-in already
    await page.getByRole('button', { name: 'Regenerate Codes' }).click();
    await page.getByRole('alert').getByText('Invalid recovery code provided, please try again.').waitFor();
    await page.getByLabel('Recovery code').fill(recoveryCodes[2]);
    await page.getByRole('button', { name: 'Regenerate Codes' }).click();
    // allInnerTexts() reads what is on the page now: wait for the new list to be drawn first.
    const freshList = page.getByTestId('recovery-codes').locator('li');
    await freshList.nth(9).waitFor();
    const fresh = await freshList.allInnerTexts();
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[3]);
    await page.getByRole('button', { name: 'I Saved Them' }).click();

    await page.getByRole('button', { name: 'Turn Off Two-Factor' }).click();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(fresh[0]);
    await page.getByRole('button', { name: 'Turn Off', exact: true }).click();
    await page.getByRole('button', { name: 'Set Up Two-Factor' }).waitFor();
    await signOutLocally();
    await passwordStep();
    await page.waitForURL('**/dashboard');
  });

  it('renames the user, changes the password and signs out everywhere from the profile', async () => {
    await page.goto('/profile');
    await page.getByLabel('Full Name').fill('Rear Admiral Hopper');
    await page.getByRole('button', { name: 'Save Name' }).click();
    await page.getByTestId('account-username').getByText('Rear Admiral Hopper').waitFor();

    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('cobol-forever-1959');
    await page.getByLabel('Confirm new password').fill('cobol-forever-1959');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByRole('alert').getByText('The current password is not correct').waitFor();
    await page.getByLabel('Current password').fill(account.password);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password changed').first().waitFor();
    account.password = 'cobol-forever-1959';
    await screenshot(page, 'account-security-profile');

    expect(String(await page.evaluate('document.cookie'))).toContain('accessToken=');
    await page.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    await page.waitForURL('**/login?email=*');
    // The API session it held is over too (not just this browser's cookies).
    expect((await server.http.post('/api/auth/refresh', { refresh_token: account.refreshToken })).status).toBe(401);
  });

  it('asks for a new password after an operator flagged the account', async () => {
    const flag = await server.http.post(`/api/admin/users/${encodeURIComponent(account.email)}/require-new-password`, undefined, {
      headers: { 'x-admin-token': TEST_ADMIN_TOKEN },
    });
    expect(flag.status).toBe(200);
    await passwordStep();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByText('Password must be at least 8 characters').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('grace-under-pressure');
    await page.getByLabel('Confirm new password').fill('grace-under-pressur');
    await page.getByText('The passwords do not match').waitFor();
    expect(await page.getByRole('button', { name: 'Set Password and Sign In' }).isDisabled()).toBe(true);
    await page.getByLabel('Confirm new password').fill('grace-under-pressure');
    await screenshot(page, 'login-new-password');
    await page.getByRole('button', { name: 'Set Password and Sign In' }).click();
    await page.waitForURL('**/dashboard');
  });
});
