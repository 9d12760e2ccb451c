import type { Page } from 'playwright-core';
import { AlertReceiver } from '../fakes/alert-receiver';
import { HttpTarget } from '../fakes/http-target';
import type { SignedInAccount } from '../support/accounts';
import type { TestServer } from '../support/test-server';
import { openAppPage, type AppPage } from './support/app-page';
import { eventually } from '../api/scheduler-fixtures';

jest.setTimeout(120_000);

/**
 * A job's response rules and auto-pause set in the form, end to end: the runs
 * fail on the rule the form set, the job pauses itself, the logs name the rule
 * and the alert reaches the account email and a Slack channel.
 */
describe('job response rules and auto-pause (browser)', () => {
  let server: TestServer;
  let target: HttpTarget;
  let receiver: AlertReceiver;
  let app: AppPage;
  let page: Page;
  let account: SignedInAccount;

  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/health', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('state: degraded');
    });
    receiver = await AlertReceiver.start();
    app = await openAppPage({ name: 'Rules Tester', env: { PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' } });
    ({ server, page, account } = app);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await target?.close();
    await receiver?.close();
  });

  const as = () => ({ token: account.accessToken });

  it('fails runs on the form’s body rule, pauses the job after two, and shows why', async () => {
    await server.http.post('/api/alert-channels', { name: 'team-slack', kind: 'slack', target: receiver.url('/slack') }, as());
    await page.goto('/dashboard/create');
    await page.getByLabel('Job Name').fill('health-check');
    await page.getByLabel('URL').fill(`${target.url}/health`);
    await page.getByRole('tab', { name: 'Expression' }).click();
    await page.getByLabel('Cron expression').fill('0 0 1 1 *');
    await page.getByText('Response rules and limits').click();
    await page.getByLabel('Body contains').fill('all good');
    await page.getByLabel('Pause after failed runs in a row').fill('2');
    await page.getByLabel('Alert me when a run fails').check();
    await page.getByRole('button', { name: 'Create Job' }).click();

    type Job = { job_id: string; name: string; response_rules: unknown; auto_pause_after: number | null };
    let job: Job | undefined;
    for (const deadline = Date.now() + 10_000; !job && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      job = ((await server.http.get('/api/jobs', as())).body as Job[]).find((j) => j.name === 'health-check');
    }
    expect(job).toMatchObject({ response_rules: { expected_status: '200-299', body_contains: 'all good' }, auto_pause_after: 2 });

    // Two runs (the target answers 200 without the text): both fail on the rule, and the second pauses the job.
    for (let i = 0; i < 2; i++) expect((await server.http.post(`/api/jobs/${job!.job_id}/run`, undefined, as())).status).toBe(200);

    await page.goto('/dashboard/jobs');
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'health-check', exact: true }) });
    await row.getByText('Paused', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Logs of health-check' }).click();
    await page.getByRole('dialog').getByText('Response rule failed: body does not contain "all good"').first().waitFor();

    const [paused] = await receiver.waitFor('/slack', 2).then((requests) => requests.filter((r) => r.body.includes('paused after repeated failures')));
    expect(paused).toBeDefined();
    // The mail and the chat alert go out independently: wait for the mail too rather than read the outbox once.
    await eventually(
      async () =>
        ((await server.http.get('/api/dev/outbox')).body as Array<{ to: string; subject: string }>).some(
          (m) => m.to === account.email && m.subject === 'Cronbeam: job "health-check" paused after 2 failed runs',
        ),
      10_000,
      'the "paused" mail',
    );
  });
});
