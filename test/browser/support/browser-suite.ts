import type { Page } from 'playwright-core';
import { signUpAndLogin, type SignedInAccount } from '../../support/accounts';
import { startTestServer, type TestServer } from '../../support/test-server';
import { launchBrowser, type Browser } from './browser';
import { setSessionCookies } from './session-cookies';
import { buildWebApp } from './web-build';

/** What a browser suite's tests and hooks use; read its fields inside them (they are set by the suite's hooks). */
export interface BrowserSuite {
  readonly server: TestServer;
  readonly browser: Browser;
  /** Where the browser reaches the server: the server's own address, or the one `reach` answered. */
  readonly baseUrl: string;
  /** The current test's page, opened on a browser whose cookies were cleared. */
  readonly page: Page;
  /** Signs a new account up and gives the browser its session. */
  signIn(name?: string): Promise<SignedInAccount>;
}

interface BrowserSuiteOptions {
  /** Extra server environment, beside the built web app. */
  env?: Record<string, string>;
  /** Starts what the browser goes through to the server (a relay an outage test switches off) and answers its address. */
  reach?(server: TestServer): Promise<string>;
}

/**
 * One server with the built web app and one Chromium for a whole suite, and a
 * page per test on a browser without cookies: registers the suite's hooks
 * (call it inside `describe`). Hooks the suite registers after it run after
 * its own, so they see the test's page.
 */
export function useBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let baseUrl: string | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp(), ...options.env });
    baseUrl = options.reach ? await options.reach(server) : server.baseUrl;
    browser = await launchBrowser(baseUrl);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    await started(browser).context.clearCookies();
    page = await started(browser).newPage();
  });
  afterEach(async () => page?.close());

  const suite: BrowserSuite = {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    get baseUrl() {
      return started(baseUrl);
    },
    get page() {
      return started(page);
    },
    async signIn(name = 'Test User') {
      const account = await signUpAndLogin(suite.server, { name });
      await setSessionCookies(suite.browser.context, suite.baseUrl, account);
      return account;
    },
  };
  return suite;
}

function started<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('The browser suite is not started: use its fields inside tests and hooks');
  return value;
}
