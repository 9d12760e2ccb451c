import type { Locator, Page } from 'playwright-core';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { until } from '../support/until';
import { seriousViolations } from './support/axe';
import { MOBILE } from './support/browser';
import { useBrowserSuite } from './support/browser-suite';
import { setSessionCookies } from './support/session-cookies';

jest.setTimeout(120_000);

/** The laptop size the screens were reviewed at. */
const LAPTOP = { width: 1366, height: 768 };

/** One screen of the app: where it is, and what shows that it has loaded its data. */
interface Screen {
  name: string;
  path: string;
  ready(page: Page): Locator;
  /** Opens what the screen shows on top of the page (a dialog), once loaded. */
  open?(page: Page): Promise<Locator>;
}

const h1 = (name: string) => (page: Page) => page.getByRole('heading', { level: 1, name });

/**
 * Accessibility of the web app: axe-core finds no serious or critical issue
 * on any screen at 1366x768 and 375x812, and the main flow (sign in, create a
 * job with a header, run it) works with the keyboard alone, focus landing
 * where the user needs it. One server and one browser for the file.
 */
describe('web app accessibility (browser)', () => {
  let target: HttpTarget;

  const app = useBrowserSuite({ env: { ALLOW_PRIVATE_TARGETS: 'true' } });
  // Started after the server and closed after it: the server's connections to it go first.
  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/ping', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  afterAll(async () => target?.close());
  beforeEach(async () => {
    await app.page.setViewportSize(LAPTOP);
  });

  /** The screen's serious and critical findings at both sizes, keyed by screen and width. */
  async function auditAtBothSizes(name: string, findings: Record<string, string[]>): Promise<void> {
    for (const size of [LAPTOP, MOBILE]) {
      await app.page.setViewportSize(size);
      const found = await seriousViolations(app.page);
      if (found.length > 0) findings[`${name} @${size.width}px`] = found;
    }
    await app.page.setViewportSize(LAPTOP);
  }

  async function audit(screens: Screen[]): Promise<Record<string, string[]>> {
    const findings: Record<string, string[]> = {};
    for (const screen of screens) {
      await app.page.goto(screen.path);
      await screen.ready(app.page).first().waitFor();
      await auditAtBothSizes(screen.name, findings);
      if (screen.open) {
        await (await screen.open(app.page)).waitFor();
        await auditAtBothSizes(`${screen.name} (open)`, findings);
      }
    }
    return findings;
  }

  it('finds no serious or critical axe issue on the sign-in, sign-up, verification and password screens at 1366 and 375 px', async () => {
    const findings = await audit([
      { name: 'login', path: '/login', ready: h1('Welcome back') },
      { name: 'signup', path: '/signup', ready: (p) => p.getByLabel('Full Name') },
      { name: 'verify', path: '/verify?email=someone%40example.test', ready: (p) => p.getByLabel('Verification code') },
      { name: 'forgot password', path: '/forgot-password', ready: (p) => p.getByLabel('Email') },
    ]);
    expect(findings).toEqual({});
  });

  it('finds no serious or critical axe issue on any signed-in screen at 1366 and 375 px', async () => {
    const account = await signUpAndLogin(app.server, { name: 'Axe Reviewer' });
    const created = await app.server.http.post(
      '/api/jobs',
      { name: 'audited-job', url: `${target.url}/ping`, cron_expression: '0 0 1 1 *', tags: ['prod', 'billing'] },
      { token: account.accessToken },
    );
    expect(created.status).toBe(200);
    // One execution, so the logs and Monitoring show a run.
    expect((await app.server.http.post(`/api/jobs/${created.body.job_id}/run`, {}, { token: account.accessToken })).status).toBe(200);
    await setSessionCookies(app.browser.context, app.server.baseUrl, account);

    const findings = await audit([
      { name: 'dashboard', path: '/dashboard', ready: (p) => p.getByText('Total Jobs') },
      {
        name: 'cron jobs',
        path: '/dashboard/jobs',
        ready: (p) => p.getByRole('row').filter({ hasText: 'audited-job' }),
        open: async (p) => {
          await p.getByRole('button', { name: 'Logs of audited-job' }).click();
          return p.getByRole('dialog', { name: 'Logs: audited-job' }).getByRole('list', { name: 'Latest executions' });
        },
      },
      { name: 'job form', path: '/dashboard/create', ready: (p) => p.getByLabel('Job Name') },
      { name: 'monitoring (logs)', path: '/dashboard/monitoring', ready: (p) => p.getByRole('list', { name: 'Latest executions' }) },
      { name: 'monitors', path: '/dashboard/monitors', ready: h1('Monitors') },
      { name: 'alert channels', path: '/dashboard/alerts', ready: h1('Alert Channels') },
      { name: 'n8n deploy', path: '/dashboard/n8n', ready: h1('Self-Host N8N') },
      { name: 'status pages', path: '/dashboard/status-pages', ready: h1('Status Pages') },
      { name: 'maintenance windows', path: '/dashboard/maintenance', ready: h1('Maintenance') },
      { name: 'audit log', path: '/dashboard/audit', ready: (p) => p.getByRole('table', { name: 'Audit log' }).getByRole('cell', { name: 'job.created', exact: true }).first() },
      { name: 'team', path: '/dashboard/team', ready: (p) => p.getByRole('table', { name: 'Members' }).getByRole('cell', { name: account.email }) },
      { name: 'profile: API keys, security, billing', path: '/profile', ready: (p) => p.getByRole('heading', { name: 'API Keys' }) },
      { name: 'pricing', path: '/pricing', ready: (p) => p.getByRole('button', { name: 'Current Plan' }) },
    ]);
    expect(findings).toEqual({});
  });

  it('signs in, creates a job with a header and runs it with the keyboard alone, focus landing where the user needs it', async () => {
    const account: SignedInAccount = await signUpAndLogin(app.server, { name: 'Keyboard User' });
    const focused = (locator: Locator) => locator.evaluate((element) => element === element.ownerDocument.activeElement);
    /** Presses Tab until the element has focus; fails if it takes more than `limit` presses (it is not in the Tab order). */
    const tabTo = async (locator: Locator, limit = 40) => {
      for (let presses = 1; presses <= limit; presses += 1) {
        await app.page.keyboard.press('Tab');
        if (await focused(locator)) return presses;
      }
      throw new Error(`${String(locator)} not reached in ${limit} Tab presses`);
    };

    await app.page.goto('/login');
    await tabTo(app.page.getByLabel('Email'));
    await app.page.keyboard.type(account.email);
    await app.page.keyboard.press('Tab');
    expect(await focused(app.page.getByLabel('Password'))).toBe(true);
    await app.page.keyboard.type(account.password);
    await app.page.keyboard.press('Enter');
    await app.page.waitForURL('**/dashboard');
    await app.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // The skip link is the first stop and takes focus past the menus into the page.
    await app.page.keyboard.press('Tab');
    expect(await focused(app.page.getByRole('link', { name: /^Skip to/ }))).toBe(true);

    await tabTo(app.page.getByRole('link', { name: 'Create Job', exact: true }));
    await app.page.keyboard.press('Enter');
    await app.page.waitForURL('**/dashboard/create');
    await tabTo(app.page.getByLabel('Job Name'));
    await app.page.keyboard.type('keyboard-job');
    await tabTo(app.page.getByLabel('URL'));
    await app.page.keyboard.type(`${target.url}/ping`);

    // "+ Add header" puts focus into the new row's name field; Tab goes on to its value.
    await tabTo(app.page.getByRole('button', { name: '+ Add header' }));
    await app.page.keyboard.press('Space');
    expect(await focused(app.page.getByLabel('Header 1 name'))).toBe(true);
    await app.page.keyboard.type('X-Keyboard');
    await app.page.keyboard.press('Tab');
    expect(await focused(app.page.getByLabel('Header 1 value'))).toBe(true);
    await app.page.keyboard.type('typed');

    await tabTo(app.page.getByRole('button', { name: 'Create Job' }));
    await app.page.keyboard.press('Enter');
    const result = app.page.getByRole('status').filter({ has: app.page.getByRole('heading', { name: 'Job created' }) });
    await result.waitFor();
    await until(() => focused(result), (isFocused) => isFocused, 5_000);

    // The result holds the next steps, a few Tab stops away: Run now, then the way to the job in the table.
    const runNow = result.getByRole('button', { name: 'Run now' });
    expect(await tabTo(runNow, 3)).toBeLessThanOrEqual(3);
    const before = target.requests('/ping').length;
    await app.page.keyboard.press('Enter');
    await app.page.getByText("Ran 'keyboard-job': SUCCESS · HTTP 200").waitFor();
    expect(target.requests('/ping').slice(before).map((request) => request.headers['x-keyboard'])).toEqual(['typed']);
    // Focus stays on the button once the run is done: the next Tab goes on from there.
    await until(() => focused(runNow), (isFocused) => isFocused, 5_000);
    await app.page.keyboard.press('Tab');
    expect(await focused(result.getByRole('link', { name: 'View in Cron Jobs' }))).toBe(true);
    await app.page.keyboard.press('Enter');
    await app.page.waitForURL('**/dashboard/jobs');
    await app.page.getByRole('row').filter({ hasText: 'keyboard-job' }).getByText('SUCCESS').first().waitFor();
  });
});
