import type { Page } from 'playwright-core';
import { FlyMachinesFake } from '../fakes/fly-machines';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { launchBrowser, screenshot, type Browser } from './support/browser';
import { setSessionCookies } from './support/session-cookies';
import { buildWebApp } from './support/web-build';

jest.setTimeout(90_000);

/** The Self-Host N8N section against the real backend and the Fly Machines stand-in. */
describe('Self-Host N8N (browser)', () => {
  let fly: FlyMachinesFake;
  let server: TestServer;
  let browser: Browser;
  let account: SignedInAccount;

  beforeAll(async () => {
    fly = await FlyMachinesFake.start();
    server = await startTestServer({ ...fly.serverEnv(), WEB_DIST_DIR: buildWebApp() });
    browser = await launchBrowser(server.baseUrl);
    account = await signUpAndLogin(server, { name: 'Ada Lovelace' });
    await setSessionCookies(browser.context, server.baseUrl, account);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fly?.close();
  });

  const openSection = async (page: Page) => {
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Self-Host N8N' }).click();
    await page.getByRole('heading', { name: 'Self-Host N8N' }).waitFor();
  };

  it('deploys from the form: live estimate, cost warning, each step completing, then the link', async () => {
    // Slow enough a start to see the steps go by one after the other.
    fly.machineStartMs = 1500;
    const page = await browser.newPage();
    await openSection(page);
    const form = page.getByRole('form', { name: 'Deploy n8n' });
    expect(await form.getByLabel('Region').inputValue()).toBe('lax');
    expect(await form.locator('#deploy-ram_mb').inputValue()).toBe('2048');
    await form.getByText('(recommended)').waitFor();
    expect(await page.getByTestId('cost-estimate').textContent()).toContain('$12.20');
    expect(await page.getByTestId('cost-warning').count()).toBe(0);

    await form.getByLabel('Region').selectOption('gru');
    await page.getByTestId('cost-warning').waitFor();
    expect(await page.getByTestId('cost-estimate').textContent()).toContain('$15.25');
    await form.locator('#deploy-ram_mb').fill('4096');
    expect(await page.getByTestId('cost-estimate').textContent()).toContain('$28.61');
    await form.getByLabel('Region').selectOption('fra');
    expect(await page.getByTestId('cost-warning').count()).toBe(0);

    // The spec's messages before anything is sent.
    await form.getByLabel('Fly.io API token').fill('short');
    await form.getByLabel('n8n username').fill('ab');
    // Leaving the field shows its message (and moves the button down) before the click.
    await form.getByLabel('n8n username').press('Tab');
    await form.getByText('Username must be at least 3 characters long').waitFor();
    await form.getByRole('button', { name: 'Deploy' }).click();
    await form.getByText('Fly.io token must be at least 10 characters long').waitFor();
    await form.getByText('Username must be at least 3 characters long').waitFor();
    await form.getByText('Password must be at least 6 characters long').waitFor();
    expect(fly.requests).toHaveLength(0);

    await form.getByLabel('Fly.io API token').fill(fly.token);
    await form.getByLabel('n8n username').fill('ada');
    await form.getByLabel('n8n password').fill('analytical-engine');
    await form.getByLabel('Subdomain (optional)').fill('ada-flows');
    await screenshot(page, 'deploy-n8n-form');
    await form.getByRole('button', { name: 'Deploy' }).click();

    const card = page.locator('[data-deployment]').filter({ hasText: 'ada-flows' });
    await card.waitFor();
    // The machine takes 1.5 s to start: the step is seen in progress before it is done.
    await card.locator('[data-step="start_machine"][data-state="running"]').waitFor({ timeout: 20_000 });
    await screenshot(page, 'deploy-n8n-progress');
    const link = card.getByRole('link', { name: `${fly.n8nUrl}/ada-flows` });
    await link.waitFor({ timeout: 30_000 });
    for (const step of ['create_app', 'allocate_ips', 'create_volume', 'create_machine', 'start_machine', 'health_check']) {
      expect(await card.locator(`[data-step="${step}"]`).getAttribute('data-state')).toBe('done');
    }
    expect(await card.getByTestId('deployment-status').textContent()).toBe('live');
    expect(fly.inventory()).toEqual([{ app: 'ada-flows', ips: 2, volumes: 1, machines: 1 }]);
    // The token and password left the form once the server had them.
    expect(await form.getByLabel('Fly.io API token').inputValue()).toBe('');
    await screenshot(page, 'deploy-n8n-live');

    // The free plan's one deployment is used: the button is disabled.
    await page.getByTestId('deploy-quota').filter({ hasText: '1 / 1' }).waitFor();
    expect(await form.getByRole('button', { name: 'Deploy' }).isDisabled()).toBe(true);
    await page.close();
  });

  it("opens the 'N8N Deployment Quota Exceeded' modal when the month's quota was used elsewhere", async () => {
    const other = await signUpAndLogin(server);
    const context = browser.context;
    await context.clearCookies();
    await setSessionCookies(context, server.baseUrl, other);
    const page = await browser.newPage();
    await openSection(page);
    await page.getByTestId('deploy-quota').filter({ hasText: '0 / 1' }).waitFor();

    // Another tab (here: the API) uses the quota while this form still shows room.
    const elsewhere = await server.http.post('/api/deploy/n8n', { fly_token: fly.token, username: 'other', password: 'secret-pw', region: 'lax', ram_mb: 1024 }, { token: other.accessToken });
    expect(elsewhere.status).toBe(202);

    const form = page.getByRole('form', { name: 'Deploy n8n' });
    await form.getByLabel('Fly.io API token').fill(fly.token);
    await form.getByLabel('n8n username').fill('other');
    await form.getByLabel('n8n password').fill('secret-pw');
    await form.getByRole('button', { name: 'Deploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'N8N Deployment Quota Exceeded' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('1 / 1');
    expect(await dialog.getByRole('table', { name: 'Deployments per plan' }).textContent()).toMatch(/Free1.*Basic5.*Pro500/);
    await dialog.getByText('Wait for next month').waitFor();
    await screenshot(page, 'deploy-n8n-quota-modal');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.close();
  });
});
