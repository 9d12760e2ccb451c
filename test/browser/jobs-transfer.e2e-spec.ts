import type { Page } from 'playwright-core';
import type { SignedInAccount } from '../support/accounts';
import type { TestServer } from '../support/test-server';
import { setPlan, TEST_ADMIN_TOKEN } from '../api/jobs-fixtures';
import { openAppPage, type AppPage } from './support/app-page';
import { screenshot } from './support/browser';

jest.setTimeout(90_000);

/** Time zones, clone, status filter and sorting, import with its preview, and the actions column on laptop widths. */
describe('job time zones, clone, filter and import (browser)', () => {
  let server: TestServer;
  let app: AppPage;
  let page: Page;
  let account: SignedInAccount;

  beforeAll(async () => {
    app = await openAppPage({
      name: 'Ada Lovelace',
      env: { ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      prepare: (server, account) => setPlan(server, account.userId, 'pro'),
    });
    ({ server, page, account } = app);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  const nav = (section: string) => page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: section });

  it('creates a job in a time zone: the preview shows local and UTC times and the job keeps the zone', async () => {
    await page.goto('/dashboard/create');
    await page.getByLabel('Job Name').fill('tokyo-morning');
    await page.getByLabel('URL').fill('https://example.com/tokyo');
    await page.getByRole('tab', { name: 'Expression' }).click();
    await page.getByLabel('Cron expression').fill('0 9 * * *');
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await page.getByText('Schedule (Asia/Tokyo)').waitFor();
    const first = page.getByTestId('next-runs').getByRole('listitem').first();
    // 09:00 in Tokyo (UTC+9, no daylight saving time) is 00:00 UTC.
    expect(await first.getByTestId('run-local').textContent()).toMatch(/ 09:00 GMT\+9$/);
    expect(await first.textContent()).toMatch(/00:00.* UTC\)$/);
    await screenshot(page, 'job-form-time-zone');
    await page.getByRole('button', { name: 'Create Job' }).click();
    await nav('Cron Jobs').click();
    await row('tokyo-morning').waitFor();
    const jobs = (await server.http.get('/api/jobs', { token: account.accessToken })).body as Array<{ name: string; time_zone: string; next_run_at: string }>;
    const job = jobs.find((j) => j.name === 'tokyo-morning')!;
    expect(job.time_zone).toBe('Asia/Tokyo');
    expect(job.next_run_at).toMatch(/T00:00:00\.000Z$/);
  });

  it('clones a job from its row, filters by status and sorts by name', async () => {
    await nav('Cron Jobs').click();
    await row('tokyo-morning').getByRole('button', { name: 'Clone tokyo-morning' }).click();
    await row('tokyo-morning-copy').waitFor();
    await row('tokyo-morning-copy').getByRole('button', { name: 'Pause tokyo-morning-copy' }).click();
    await row('tokyo-morning-copy').getByText('Paused', { exact: false }).waitFor();

    await page.getByLabel('Status').selectOption('paused');
    await page.getByRole('cell', { name: 'tokyo-morning', exact: true }).waitFor({ state: 'detached' });
    expect(await row('tokyo-morning-copy').count()).toBe(1);
    await page.getByLabel('Status').selectOption('all');
    await row('tokyo-morning').waitFor();

    await page.getByLabel('Sort by').selectOption('name');
    const names = await page.locator('.jobs-table tbody tr td[data-label="Name"]').allTextContents();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('imports a crontab after a preview that names what is refused and why', async () => {
    await nav('Cron Jobs').click();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import jobs' });
    await dialog.getByLabel('Content').fill(['CRON_TZ=Europe/Berlin', '30 6 * * 1-5 curl -X POST https://example.com/report', '@reboot /opt/warm.sh'].join('\n'));
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = dialog.getByRole('table', { name: 'Import preview' });
    await preview.getByText('Refused: @reboot has no schedule').waitFor();
    await preview.getByText('Will be created (30 6 * * 1-5, Europe/Berlin)').waitFor();
    await screenshot(page, 'jobs-import-preview');
    await dialog.getByRole('button', { name: 'Import 1 job' }).click();
    // The list is reloaded before the dialog closes: until then the preview's row bears the same name.
    await dialog.waitFor({ state: 'hidden' });
    await row('example-com-report').waitFor();
  });

  it.each([
    [1366, 768],
    [1024, 768],
  ])('keeps every row action in view without horizontal scrolling at %i px', async (width, height) => {
    await page.setViewportSize({ width, height });
    // A long name and URL, as real jobs have, paused (so its first action reads Resume).
    const long = await server.http.post(
      '/api/jobs',
      { name: `wide-${width}-nightly-warehouse-export`, url: `https://reports.example.com/api/v2/exports/nightly?format=csv&width=${width}`, cron_expression: '0 2 * * *' },
      { token: account.accessToken },
    );
    await server.http.post(`/api/jobs/${long.body.job_id}/pause`, undefined, { token: account.accessToken });
    await page.goto('/dashboard/jobs');
    const name = `wide-${width}-nightly-warehouse-export`;
    const target = row(name);
    await target.waitFor();
    for (const action of ['Resume', 'Logs of', 'Edit', 'Clone', 'Delete']) {
      const button = target.getByRole('button', { name: `${action} ${name}` });
      const box = (await button.boundingBox())!;
      expect({ action, right: Math.ceil(box.x + box.width) <= width, left: box.x >= 0 }).toEqual({ action, right: true, left: true });
    }
    const widths = (await page.evaluate('({ page: document.documentElement.scrollWidth, view: innerWidth })')) as { page: number; view: number };
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    await screenshot(page, `jobs-table-${width}`);
  });
});
