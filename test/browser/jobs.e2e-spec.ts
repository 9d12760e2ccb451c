import { HttpTarget } from '../fakes/http-target';
import type { SignedInAccount } from '../support/accounts';
import { screenshot } from './support/browser';
import { useBrowserSuite } from './support/browser-suite';

// Jest reads testTimeout only from the top-level config, not from a project entry.
jest.setTimeout(60_000);

/** A job with a `* * * * *` schedule fires at the next minute: up to 60 s plus the scheduler's slack. */
const NEXT_MINUTE_MS = 75_000;

/** The dashboard against the real backend (jobs API, scheduler, executor) and a local HTTP target. */
describe('dashboard and jobs (browser)', () => {
  let target: HttpTarget;
  let account: SignedInAccount;

  const app = useBrowserSuite({ env: { SCHEDULER_ENABLED: 'true', ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER_POLL_INTERVAL_MS: '200' } });
  // Started after the server and closed after it: the server's connections to it go first.
  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/hook', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, source: 'browser-test-target' }));
    });
  });
  afterAll(async () => target?.close());
  beforeEach(async () => {
    account = await app.signIn('Grace Hopper');
  });

  const row = (name: string) => app.page.getByRole('row').filter({ hasText: name });
  const nav = (section: string) => app.page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: section });

  it('creates a job from a preset, edits, pauses, resumes, sees its run in Monitoring and deletes it', async () => {
    await app.page.goto('/dashboard');
    await app.page.getByText('No jobs found.').waitFor();
    await app.page.getByText('Connected').waitFor();
    await screenshot(app.page, 'dashboard-empty');

    await nav('Create Job').click();
    await app.page.getByLabel('Job Name').fill('ping-target');
    await app.page.getByLabel('URL').fill(`${target.url}/hook`);
    await app.page.getByText('Using HTTP is not secure - consider using HTTPS instead').waitFor();
    await app.page.getByRole('tab', { name: 'Preset' }).click();
    await app.page.getByLabel('Schedule preset').selectOption({ label: 'Every 5 minutes' });
    expect(await app.page.getByTestId('cron-text').textContent()).toBe('*/5 * * * *');
    expect(await app.page.getByTestId('next-runs').getByRole('listitem').count()).toBe(5);
    await screenshot(app.page, 'create-job');
    await app.page.getByRole('button', { name: 'Create Job' }).click();
    await app.page.getByRole('heading', { name: 'Job created' }).waitFor();
    const jobId = (await app.page.getByTestId('created-job-id').textContent())!;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    await screenshot(app.page, 'create-job-success');

    await app.page.getByRole('link', { name: '← Back to Jobs' }).click();
    await row('ping-target').waitFor();
    expect(await row('ping-target').textContent()).toContain('Never');
    expect(await row('ping-target').getByText(/\d{2}:\d{2}:\d{2} UTC/).count()).toBe(1);
    await screenshot(app.page, 'jobs');

    await row('ping-target').getByRole('button', { name: 'Edit ping-target' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Edit job: ping-target' });
    expect(await dialog.getByLabel('Job ID').inputValue()).toBe(jobId);
    await dialog.getByRole('tab', { name: 'Expression' }).click();
    await dialog.getByLabel('Cron expression').fill('* * * * *');
    await dialog.getByTestId('cron-description').filter({ hasText: 'minute' }).waitFor();
    await screenshot(app.page, 'edit-job');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = await app.server.http.get(`/api/jobs/${jobId}`, { token: account.accessToken });
    expect(saved.body.cron_expression).toBe('* * * * *');

    await row('ping-target').getByRole('button', { name: 'Pause ping-target' }).click();
    await row('ping-target').getByText('Paused').waitFor();
    await row('ping-target').getByRole('button', { name: 'Resume ping-target' }).click();
    // Not paused any more (a run firing at once may already have turned 'Scheduled' into 'Success').
    await row('ping-target').getByRole('button', { name: 'Pause ping-target' }).waitFor();
    expect(await row('ping-target').getByText('Paused').count()).toBe(0);

    // Monitoring is open before the run fires: the execution arrives through the event stream, without a reload.
    // If a minute boundary passed while editing, that run is already listed and the next one is awaited.
    await nav('Monitoring').click();
    const executions = app.page.getByRole('list', { name: 'Latest executions' });
    await app.page.getByText('No executions yet. Runs show here as they happen.').or(executions).waitFor();
    const shownBefore = await executions.getByRole('listitem').count();
    await executions.getByRole('listitem').nth(shownBefore).waitFor({ timeout: NEXT_MINUTE_MS });
    await executions.getByText(/SUCCESS · 200/).first().waitFor();
    expect(target.requests('/hook').length).toBeGreaterThan(0);
    await app.page.getByLabel('Response data').getByText('"source": "browser-test-target"').waitFor();
    expect(await app.page.getByRole('img', { name: /recent executions: \d+ succeeded, 0 failed/ }).count()).toBe(1);
    await app.page.getByText('System Status').waitFor();
    await screenshot(app.page, 'monitoring');

    await nav('Cron Jobs').click();
    // The same event reloaded the job list, so its last run is there too.
    expect(await row('ping-target').textContent()).not.toContain('Never');
    await row('ping-target').getByRole('button', { name: 'Logs of ping-target' }).click();
    const logs = app.page.getByRole('dialog', { name: 'Logs: ping-target' });
    await logs.getByText(/SUCCESS · 200/).first().waitFor();
    await screenshot(app.page, 'job-logs');
    await app.page.keyboard.press('Escape');
    await logs.waitFor({ state: 'detached' });

    await row('ping-target').getByRole('button', { name: 'Delete ping-target' }).click();
    const confirm = app.page.getByRole('dialog', { name: 'Delete job' });
    await screenshot(app.page, 'delete-job');
    await confirm.getByRole('button', { name: 'Delete Job' }).click();
    await row('ping-target').waitFor({ state: 'detached' });
    await app.page.getByText('No jobs found.').waitFor();
    expect((await app.server.http.get(`/api/jobs/${jobId}`, { token: account.accessToken })).status).toBe(404);
  }, 150_000);

  it('shows the dashboard stats, recent activity and a working name filter', async () => {
    for (const name of ['alpha-job', 'beta-job']) {
      const created = await app.server.http.post('/api/jobs', { name, url: 'https://example.com/x', cron_expression: '0 0 * * *' }, { token: account.accessToken });
      expect(created.status).toBeLessThan(300);
    }
    await app.page.goto('/dashboard');
    await row('alpha-job').waitFor();
    await app.page.getByText('Total Jobs').waitFor();
    // The spec's seven cards, plus heartbeat monitors beside the jobs.
    const cards = app.page.getByRole('list', { name: 'Account statistics' }).getByRole('listitem');
    expect(await cards.locator('.stat-label').allTextContents()).toEqual([
      'Total Jobs', 'Active Jobs', 'Failed Jobs', 'Monitors', 'Jobs Used', 'Executions Used', 'N8N Deployments (this month)', 'Plan',
    ]);
    await screenshot(app.page, 'dashboard');
    await app.page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await app.page.locator('html').getAttribute('data-theme')).toBe('dark');
    await screenshot(app.page, 'dashboard-dark');
    await app.page.getByRole('button', { name: 'Switch to light theme' }).click();

    await nav('Monitoring').click();
    await app.page.getByLabel('Filter jobs by name').fill('beta');
    const jobs = app.page.getByRole('list', { name: 'Jobs' });
    await jobs.getByText('beta-job').waitFor();
    expect(await jobs.getByText('alpha-job').count()).toBe(0);
  });

  it('opens the Job Quota Exceeded modal at the free plan limit', async () => {
    for (const name of ['first', 'second']) {
      const created = await app.server.http.post('/api/jobs', { name, url: 'https://example.com/x', cron_expression: '0 0 * * *' }, { token: account.accessToken });
      expect(created.status).toBeLessThan(300);
    }
    await app.page.goto('/dashboard/create');
    await app.page.getByLabel('Job Name').fill('third');
    await app.page.getByLabel('URL').fill('https://example.com/third');
    await app.page.getByRole('button', { name: 'Create Job' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Job Quota Exceeded' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('2 / 2');
    await screenshot(app.page, 'quota-modal');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows each validation message of the job form', async () => {
    await app.page.goto('/dashboard/create');
    const message = (text: string) => app.page.getByText(text, { exact: true }).waitFor();
    await app.page.getByRole('button', { name: 'Create Job' }).click();
    await message('Please fix the errors before submitting');
    await message('Name is required');
    await message('URL is required');

    await app.page.getByLabel('Job Name').fill('bad name!');
    await app.page.getByLabel('Job Name').blur();
    await message('Name can only contain letters, numbers, hyphens (-), and underscores (_)');
    await app.page.getByLabel('URL').fill('not a url');
    await app.page.getByLabel('URL').blur();
    await message('Please enter a valid URL');
    await app.page.getByLabel('URL').fill('http://example.com');
    await message('Using HTTP is not secure - consider using HTTPS instead');

    await app.page.getByRole('tab', { name: 'Expression' }).click();
    const cron = app.page.getByLabel('Cron expression');
    await cron.fill('');
    await cron.blur();
    await message('Cron expression is required');
    await cron.fill('* * *');
    await cron.blur();
    await message('Cron expression must have 5 fields, or 6 with seconds first');
    for (const [expression, text] of [
      ['60 * * * *', 'Minute must be between 0 and 59'],
      ['0 24 * * *', 'Hour must be between 0 and 23'],
      ['0 0 32 * *', 'Day of month must be between 1 and 31'],
      ['0 0 1 13 *', 'Month must be between 1 and 12'],
      ['0 0 * * 7', 'Day of week must be between 0 and 6'],
    ]) {
      await cron.fill(expression);
      await cron.blur();
      await message(text);
    }
    await screenshot(app.page, 'job-form-errors');
  });
});
