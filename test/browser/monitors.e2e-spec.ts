import type { Page } from 'playwright-core';
import type { SignedInAccount } from '../support/accounts';
import type { TestServer } from '../support/test-server';
import { openAppPage, type AppPage } from './support/app-page';
import { screenshot } from './support/browser';

jest.setTimeout(120_000);

/** The Monitors section: create on a cron schedule, copy-able ping URLs, pings seen, pause/resume, edit, plan limit, dashboard count, delete. */
describe('heartbeat monitors (browser)', () => {
  let server: TestServer;
  let app: AppPage;
  let page: Page;
  let account: SignedInAccount;

  beforeAll(async () => {
    app = await openAppPage({ name: 'Monitor Tester' });
    ({ server, page, account } = app);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  const row = (name: string) => page.getByRole('table', { name: 'Monitors' }).getByRole('row').filter({ hasText: name });

  it('creates a monitor on a cron schedule in a time zone and shows its ping URLs', async () => {
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Monitors' }).click();
    await page.getByText('No monitors yet').waitFor();
    await page.getByRole('button', { name: 'New Monitor' }).click();
    await page.getByLabel('Monitor name').fill('nightly-backup');
    await page.getByLabel('On a cron schedule').check();
    await page.getByRole('tab', { name: 'Expression' }).click();
    await page.getByLabel('Cron expression').fill('30 2 * * *');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel('Grace time').fill('10');
    await page.getByLabel('Grace unit').selectOption('minutes');
    await page.getByRole('button', { name: 'Create Monitor' }).click();
    await page.getByText("Monitor 'nightly-backup' created").waitFor();
    await row('nightly-backup').filter({ hasText: 'Europe/Berlin' }).filter({ hasText: '10 minutes' }).waitFor();
    await row('nightly-backup').getByText('New', { exact: true }).waitFor();

    // The saved monitor opens its details: the three ping URLs, each with a copy button.
    const details = page.getByTestId('monitor-details');
    const success = (await details.getByTestId('ping-url-success').textContent())!;
    expect(success).toMatch(/\/ping\/[A-Za-z0-9_-]{20,}$/);
    expect(await details.getByTestId('ping-url-failure').textContent()).toBe(`${success}/fail`);
    expect(await details.getByTestId('ping-url-start').textContent()).toBe(`${success}/start`);
    await details.getByRole('button', { name: 'Copy success ping URL of nightly-backup' }).waitFor();

    // A ping from the job: after a refresh the monitor is up and the event is listed.
    expect((await server.http.get(new URL(success).pathname)).status).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row('nightly-backup').getByText('Up', { exact: true }).waitFor();
    await page.getByRole('list', { name: 'Recent events of nightly-backup' }).getByText('Ping').waitFor();
    await screenshot(page, 'monitors');
  });

  it('pauses, resumes and edits a monitor into a period schedule', async () => {
    await page.getByRole('button', { name: 'Pause nightly-backup' }).click();
    await row('nightly-backup').getByText('Paused', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Resume nightly-backup' }).click();
    await row('nightly-backup').getByText('New', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Edit nightly-backup' }).click();
    await page.getByLabel('Every period').check();
    await page.getByLabel('Period', { exact: true }).fill('5');
    await page.getByLabel('Period unit').selectOption('minutes');
    await page.getByRole('button', { name: 'Save Monitor' }).click();
    await page.getByText("Monitor 'nightly-backup' updated").waitFor();
    await row('nightly-backup').getByText('every 5 minutes').waitFor();
  });

  it('counts monitors toward the plan’s job limit and shows them on the dashboard', async () => {
    await page.getByRole('button', { name: 'New Monitor' }).click();
    await page.getByLabel('Monitor name').fill('etl');
    await page.getByRole('button', { name: 'Create Monitor' }).click();
    await row('etl').waitFor();
    // Free plan: two job places, both taken by monitors now.
    await page.getByRole('button', { name: 'New Monitor' }).click();
    await page.getByLabel('Monitor name').fill('one-too-many');
    await page.getByRole('button', { name: 'Create Monitor' }).click();
    const quota = page.getByRole('dialog', { name: 'Job Quota Exceeded' });
    await quota.getByText('2 / 2').waitFor();
    await quota.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    const cards = page.getByRole('list', { name: 'Account statistics' });
    await cards.getByRole('listitem').filter({ hasText: 'Monitors' }).filter({ hasText: '2' }).waitFor();
    await cards.getByRole('listitem').filter({ hasText: 'Jobs Used' }).filter({ hasText: '2 / 2' }).waitFor();
    const overview = page.getByRole('table', { name: 'Monitors overview' });
    await overview.getByRole('row').filter({ hasText: 'nightly-backup' }).filter({ hasText: 'every 5 minutes' }).waitFor();
    await overview.getByRole('row').filter({ hasText: 'etl' }).waitFor();
    await screenshot(page, 'dashboard-with-monitors');
  });

  it('deletes a monitor after confirmation', async () => {
    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Monitors' }).click();
    await page.getByRole('button', { name: 'Delete etl' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete monitor' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await row('etl').waitFor();
    await page.getByRole('button', { name: 'Delete etl' }).click();
    await dialog.getByRole('button', { name: 'Delete Monitor' }).click();
    await page.getByText("Monitor 'etl' deleted").waitFor();
    await row('etl').waitFor({ state: 'detached' });
    expect(((await server.http.get('/api/monitors', { token: account.accessToken })).body as unknown[]).length).toBe(1);
  });
});
