import type { Page } from 'playwright-core';
import { signUpAndLogin } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { launchBrowser, type Browser } from './support/browser';
import { buildWebApp } from './support/web-build';

jest.setTimeout(60_000);

/**
 * The built web app, the public pages and Swagger UI work under the server's
 * Content-Security-Policy (scripts from this origin only): they render, and
 * Chromium reports no violation.
 */
describe('Content-Security-Policy in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let violations: string[];

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp() });
    browser = await launchBrowser(server.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    violations = [];
    page = await browser.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // Chromium also fires securitypolicyviolation in the page; record those the console might not show.
    // (A script text: these tests are typed without the DOM library.)
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
    });
  });
  afterEach(async () => page?.close());

  it('the public home page and a guide render without violations', async () => {
    const res = await page.goto('/');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.goto('/guides');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });

  it('the signed-in dashboard renders without violations', async () => {
    const user = await signUpAndLogin(server);
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByRole('heading').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });

  it('Swagger UI at /prog/docs renders the API reference without violations', async () => {
    await page.goto('/prog/docs');
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(violations).toEqual([]);
  });
});
