import type { Page } from 'playwright-core';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { signUpAndLogin } from '../support/accounts';
import { waitUntilSignInStale } from '../support/recent-sign-in';
import { startTestServer, type TestServer } from '../support/test-server';
import { launchBrowser, screenshot, type Browser } from './support/browser';
import { setSessionCookies } from './support/session-cookies';
import { buildWebApp } from './support/web-build';

// Jest reads testTimeout only from the top-level config, not from a project entry.
jest.setTimeout(90_000);

/** A short window, so the session goes stale within the test (the default is 600 s). */
const MAX_AGE_SECONDS = 8;

/** Deleting the account from a session whose sign-in is too old, in Chromium against the real app. */
describe('a sensitive operation on a stale session (browser)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp(), AUTH_REAUTHENTICATION_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS) });
    browser = await launchBrowser(server.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(async () => page?.close());

  it('asks for the password in a dialog, then deletes the account', async () => {
    const account = await signUpAndLogin(server, { name: 'Stale Session' });
    // The browser deletes the user below, and the personal account's audit entries (the sign-up's) with it:
    // the test server checks them now, while they are there.
    await server.auditCheckpoint();
    await waitUntilSignInStale(server.http, account.accessToken, MAX_AGE_SECONDS);

    await setSessionCookies(browser.context, server.baseUrl, account);
    page = await browser.newPage();
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByRole('button', { name: 'Delete My Account' }).click();

    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByText(AUTH_MESSAGES.reauthenticationRequired).waitFor();
    await screenshot(page, 'confirm-it-is-you');
    await confirm.getByLabel('Password').fill('not-the-password');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await confirm.getByRole('alert').getByText(AUTH_MESSAGES.incorrectCredentials).waitFor();
    expect((await server.http.get('/api/account', { token: account.accessToken })).status).toBe(200);

    await confirm.getByLabel('Password').fill(account.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Your account has been deleted.').waitFor();
    expect((await server.http.get('/api/account', { token: account.accessToken })).status).toBe(401);
  });
});
