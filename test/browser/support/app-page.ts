import type { Page } from 'playwright-core';
import { signUpAndLogin, type SignedInAccount } from '../../support/accounts';
import { startTestServer, type TestServer } from '../../support/test-server';
import { launchBrowser, type Browser } from './browser';
import { setSessionCookies } from './session-cookies';
import { buildWebApp } from './web-build';

export interface AppPage {
  server: TestServer;
  browser: Browser;
  page: Page;
  account: SignedInAccount;
  /** Closes the page, the browser and the server. */
  close(): Promise<void>;
}

interface AppPageOptions {
  /** The account's display name. */
  name: string;
  /** Extra server environment, beside the built web app. */
  env?: Record<string, string>;
  /** False leaves the browser signed out (the account still exists). */
  signedIn?: boolean;
  /** Runs once the account exists, before the browser gets its session (e.g. to change its plan). */
  prepare?(server: TestServer, account: SignedInAccount): Promise<void>;
}

/**
 * The built web app on a test server, an account signed up, and one page in
 * Chromium, signed in as that account unless asked otherwise. If a step fails,
 * what was already started is closed before the error is passed on.
 */
export async function openAppPage(options: AppPageOptions): Promise<AppPage> {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const close = async () => {
    await page?.close();
    await browser?.close();
    await server?.close();
  };
  try {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp(), ...options.env });
    browser = await launchBrowser(server.baseUrl);
    const account = await signUpAndLogin(server, { name: options.name });
    await options.prepare?.(server, account);
    if (options.signedIn !== false) await setSessionCookies(browser.context, server.baseUrl, account);
    page = await browser.newPage();
    return { server, browser, page, account, close };
  } catch (error) {
    await close();
    throw error;
  }
}
