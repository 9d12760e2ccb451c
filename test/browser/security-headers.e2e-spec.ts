import { signUpAndLogin } from '../support/accounts';
import { useBrowserSuite } from './support/browser-suite';

jest.setTimeout(60_000);

/**
 * The built web app, the public pages and Swagger UI work under the server's
 * Content-Security-Policy (scripts from this origin only): they render, and
 * Chromium reports no violation.
 */
describe('Content-Security-Policy in Chromium', () => {
  const app = useBrowserSuite();
  let violations: string[];

  beforeEach(async () => {
    violations = [];
    app.page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // Chromium also fires securitypolicyviolation in the page; record those the console might not show.
    // (A script text: these tests are typed without the DOM library.)
    await app.page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
    });
  });

  it('the public home page and a guide render without violations', async () => {
    const res = await app.page.goto('/');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await app.page.getByRole('heading', { level: 1 }).first().waitFor();
    await app.page.waitForLoadState('networkidle');
    await app.page.goto('/guides');
    await app.page.getByRole('heading', { level: 1 }).first().waitFor();
    await app.page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });

  it('the signed-in dashboard renders without violations', async () => {
    const user = await signUpAndLogin(app.server);
    await app.page.goto('/login');
    await app.page.getByLabel('Email').fill(user.email);
    await app.page.getByLabel('Password').fill(user.password);
    await app.page.getByRole('button', { name: /sign in/i }).click();
    await app.page.waitForURL(/\/dashboard/);
    await app.page.getByRole('heading').first().waitFor();
    // Not 'networkidle': the dashboard keeps its event stream open, so the network never goes quiet. Connected means
    // the ping and the stream were answered; the stat cards mean the section's data came.
    await app.page.getByRole('status', { name: 'Backend: Connected' }).waitFor();
    await app.page.getByText('Active Jobs').first().waitFor();
    expect(violations).toEqual([]);
  });

  it('Swagger UI at /prog/docs renders the API reference without violations', async () => {
    await app.page.goto('/prog/docs');
    await app.page.locator('.swagger-ui .info .title').waitFor();
    await app.page.locator('.opblock').first().waitFor();
    expect(violations).toEqual([]);
  });
});
