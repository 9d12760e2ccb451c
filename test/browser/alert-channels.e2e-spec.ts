import type { Page } from 'playwright-core';
import { AlertProviders } from '../fakes/alert-providers';
import { AlertReceiver } from '../fakes/alert-receiver';
import type { SignedInAccount } from '../support/accounts';
import type { TestServer } from '../support/test-server';
import { openAppPage, type AppPage } from './support/app-page';
import { screenshot } from './support/browser';

jest.setTimeout(90_000);

const BOT_TOKEN = '123456789:AAHfZ-browser_bot_token_0123456789';
const ROUTING_KEY = 'B0123456789abcdef0123456789ABCDE';

/** The Alert Channels section: add a signed webhook, see its secret once, send a test alert, refuse a bad target, verify an email channel by its mailed link. */
describe('alert channels (browser)', () => {
  let server: TestServer;
  let receiver: AlertReceiver;
  let providers: AlertProviders;
  let app: AppPage;
  let page: Page;
  let account: SignedInAccount;

  beforeAll(async () => {
    receiver = await AlertReceiver.start();
    providers = await AlertProviders.start({ botTokens: [BOT_TOKEN] });
    app = await openAppPage({ name: 'Alert Tester', env: { PRIVATE_TARGET_ALLOWLIST: '127.0.0.1', TELEGRAM_API_URL: providers.url } });
    ({ server, page, account } = app);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await providers?.close();
  });

  it('adds a webhook channel, shows its signing secret once and delivers a signed test alert', async () => {
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Alert Channels' }).click();
    await page.getByText('No alert channels yet').waitFor();
    await page.getByLabel('Channel type').selectOption('webhook');
    await page.getByLabel('Channel name').fill('ops-webhook');
    await page.getByLabel('Webhook URL').fill(receiver.url('/ops'));
    await page.getByRole('button', { name: 'Add channel' }).click();
    const secret = (await page.getByTestId('webhook-secret').locator('code').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('row').filter({ hasText: 'ops-webhook' }).waitFor();
    await page.getByRole('button', { name: 'Send test alert to ops-webhook' }).click();
    await page.getByText("Test alert delivered to 'ops-webhook'").waitFor();
    const [request] = await receiver.waitFor('/ops', 1);
    expect(AlertReceiver.verifySignature(request!, secret)).toBe(true);
    await screenshot(page, 'alert-channels');
  });

  it('names the problem with a bad target', async () => {
    await page.getByLabel('Channel type').selectOption('email');
    await page.getByLabel('Channel name').fill('bad-mail');
    await page.getByLabel('Email address', { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter a valid email address, like ops@example.com.' }).waitFor();
  });

  it('keeps an email channel to another address pending until its recipient confirms the mailed link', async () => {
    const address = `colleague-${Date.now()}@example.test`;
    await page.goto('/dashboard/alerts');
    await page.getByLabel('Channel type').selectOption('email');
    await page.getByLabel('Channel name').fill('colleague');
    await page.getByLabel('Email address', { exact: true }).fill(address);
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByTestId('verification-sent').filter({ hasText: address }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'colleague' });
    await row.getByText('Pending verification').waitFor();
    expect(await page.getByRole('button', { name: 'Send test alert to colleague' }).count()).toBe(0);
    await screenshot(page, 'alert-channels-pending');
    // The link was mailed a moment ago: a resend now is refused with the reason.
    await page.getByRole('button', { name: 'Resend verification to colleague' }).click();
    await page.getByText('A verification mail was just sent to this address; try again later').waitFor();

    const outbox = (await server.http.get('/api/dev/outbox')).body as Array<{ to: string; text: string }>;
    const mails = outbox.filter((m) => m.to === address);
    expect(mails).toHaveLength(1);
    const link = new URL(mails[0]!.text.match(/https?:\/\/\S+#token=\S+/)![0]);
    await page.goto(link.pathname + link.hash);
    await page.getByRole('button', { name: 'Confirm alerts' }).click();
    await page.getByText(`Alerts to ${address} are confirmed`).waitFor();
    await screenshot(page, 'alert-channel-confirmed');

    await page.goto('/dashboard/alerts');
    await page.getByRole('row').filter({ hasText: 'colleague' }).getByText('Active', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send test alert to colleague' }).click();
    await page.getByText("Test alert delivered to 'colleague'").waitFor();
  });

  it('sends only the chosen jobs’ alerts to a channel', async () => {
    const as = { token: account.accessToken };
    const job = (await server.http.post('/api/jobs', { name: 'nightly-report', url: 'https://example.com/report', cron_expression: '0 2 * * *' }, as)).body;
    await server.http.post('/api/jobs', { name: 'other-job', url: 'https://example.com/other', cron_expression: '0 3 * * *' }, as);
    await page.goto('/dashboard/alerts');
    await page.getByLabel('Channel type').selectOption('slack');
    await page.getByLabel('Channel name').fill('reports-slack');
    await page.getByLabel('Slack webhook URL').fill(receiver.url('/reports'));
    await page.getByLabel('Every job with “Alert me when a run fails” ticked').uncheck();
    await page.getByLabel('nightly-report').check();
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('row').filter({ hasText: 'reports-slack' }).getByRole('cell', { name: 'nightly-report', exact: true }).waitFor();
    const channels = (await server.http.get('/api/alert-channels', as)).body as Array<{ name: string; job_ids: string[] | null }>;
    expect(channels.find((c) => c.name === 'reports-slack')!.job_ids).toEqual([job.job_id]);
    expect(channels.find((c) => c.name === 'ops-webhook')!.job_ids).toBeNull();
    await page.getByRole('row').filter({ hasText: 'ops-webhook' }).getByRole('cell', { name: 'All alerting jobs' }).waitFor();
  });

  it('adds Telegram and PagerDuty channels with their secrets, which are never shown again, and delivers their test alerts', async () => {
    await page.goto('/dashboard/alerts');
    await page.getByLabel('Channel type').selectOption('telegram');
    await page.getByLabel('Channel name').fill('ops-telegram');
    await page.getByLabel('Telegram chat id').fill('not a chat');
    await page.getByLabel('Bot token').fill(BOT_TOKEN);
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter the chat id' }).waitFor();
    await page.getByLabel('Telegram chat id').fill('-1001234567890');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('row').filter({ hasText: 'ops-telegram' }).waitFor();
    await page.getByRole('button', { name: 'Send test alert to ops-telegram' }).click();
    await page.getByText("Test alert delivered to 'ops-telegram'").waitFor();
    const [message] = await providers.waitFor(() => providers.telegram, 1);
    expect(message!.body).toMatchObject({ chat_id: '-1001234567890', text: expect.stringContaining('Cronbeam: test alert') });

    // PagerDuty: the form fills in the events endpoint; here it points at the stand-in.
    await page.getByLabel('Channel type').selectOption('pagerduty');
    expect(await page.getByLabel('PagerDuty events URL').inputValue()).toBe('https://events.pagerduty.com/v2/enqueue');
    await page.getByLabel('Channel name').fill('ops-pagerduty');
    await page.getByLabel('PagerDuty events URL').fill(`${providers.url}/v2/enqueue`);
    await page.getByLabel('Routing key').fill('too-short');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('alert').filter({ hasText: '32-character routing key' }).waitFor();
    await page.getByLabel('Routing key').fill(ROUTING_KEY);
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('row').filter({ hasText: 'ops-pagerduty' }).waitFor();
    await page.getByRole('button', { name: 'Send test alert to ops-pagerduty' }).click();
    await page.getByText("Test alert delivered to 'ops-pagerduty'").waitFor();
    const [event] = await providers.waitFor(() => providers.pagerDuty, 1);
    expect(event!.body).toMatchObject({ routing_key: ROUTING_KEY, event_action: 'trigger' });
    const html = await page.content();
    expect(html).not.toContain(BOT_TOKEN);
    expect(html).not.toContain(ROUTING_KEY);
    await screenshot(page, 'alert-channels-providers');
  });
});
