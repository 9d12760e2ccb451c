import { AlertProviders } from '../fakes/alert-providers';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import { until } from '../support/until';

jest.setTimeout(60_000);

const BOT_TOKEN = '123456789:AAHfZ-test_bot_token_0123456789abcd';
const ROUTING_KEY = 'R0123456789abcdef0123456789ABCDE';
const NTFY_TOKEN = 'tk_ntfyaccesstoken0123456789';
const ALERTMANAGER_TOKEN = 'am-bearer-0123456789';

/**
 * Telegram, PagerDuty, ntfy, Microsoft Teams and Alertmanager channels: each
 * alert reaches a local stand-in that takes only its provider's documented
 * request format, through the durable queue and the delivery log; channel
 * secrets are sealed at rest and never answered back.
 */
describe('alert channels: Telegram, PagerDuty, ntfy, Teams, Alertmanager', () => {
  let server: TestServer;
  let providers: AlertProviders;
  let target: HttpTarget;
  let alice: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const create = (body: Record<string, unknown>) => server.http.post('/api/alert-channels', body, as(alice));
  type Delivery = { attempt: number; status: string; response_code: number | null; event: string; error: string | null };
  const deliveries = async (channelId: string): Promise<Delivery[]> => (await server.http.get(`/api/alert-channels/${channelId}/deliveries`, as(alice))).body.deliveries;

  beforeAll(async () => {
    providers = await AlertProviders.start({ botTokens: [BOT_TOKEN], ntfyTokens: { 'ops-alerts': NTFY_TOKEN }, alertmanagerToken: ALERTMANAGER_TOKEN });
    target = await HttpTarget.start();
    // Loopback is allowed for the local stand-ins only; the target policy still applies to everything else.
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PRIVATE_TARGET_ALLOWLIST: '127.0.0.1', TELEGRAM_API_URL: providers.url });
    alice = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
    await providers?.close();
    await target?.close();
  });

  it.each([
    [{ kind: 'telegram', target: 'not a chat', secret: BOT_TOKEN }, ['body', 'target'], 'Telegram chat id'],
    [{ kind: 'telegram', target: '-100123' }, ['body', 'secret'], 'secret is required for telegram channels'],
    [{ kind: 'telegram', target: '-100123', secret: 'nocolon' }, ['body', 'secret'], 'bot token'],
    [{ kind: 'pagerduty', target: 'https://events.pagerduty.com/v2/enqueue', secret: 'short' }, ['body', 'secret'], '32-character routing key'],
    [{ kind: 'pagerduty', target: 'https://events.pagerduty.com/v2/enqueue' }, ['body', 'secret'], 'secret is required for pagerduty channels'],
    [{ kind: 'ntfy', target: 'https://ntfy.sh/' }, ['body', 'target'], 'topic URL'],
    [{ kind: 'ntfy', target: 'https://ntfy.sh/topic', secret: 'has space' }, ['body', 'secret'], 'ntfy access token'],
    [{ kind: 'teams', target: 'teams.example.com/webhook' }, ['body', 'target'], 'http:// or https:// URL'],
    [{ kind: 'teams', target: 'https://example.webhook.office.com/webhookb2/x', secret: 'x' }, ['body', 'secret'], 'secret is not taken by teams channels'],
    [{ kind: 'webhook', target: 'https://example.com/hook', secret: 'mine' }, ['body', 'secret'], 'the server makes the signing secret'],
    // The address policy of job URLs, refusing here what it refuses there.
    [{ kind: 'alertmanager', target: 'http://metadata.google.internal/computeMetadata/v1/' }, ['body', 'target'], 'private'],
    [{ kind: 'ntfy', target: 'http://metadata/topic' }, ['body', 'target'], 'private'],
  ])('refuses %j with a 422 naming the field', async (fields, loc, words) => {
    const res = await create({ name: 'x', ...fields });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(loc);
    expect(res.body.detail[0].msg).toContain(words);
  });

  it('sends a test alert to each provider in its format, logs it, and never answers a channel secret back', async () => {
    const channels = {
      telegram: (await create({ name: 'tg', kind: 'telegram', target: '-1001234567890', secret: BOT_TOKEN })).body,
      pagerduty: (await create({ name: 'pd', kind: 'pagerduty', target: `${providers.url}/v2/enqueue`, secret: ROUTING_KEY })).body,
      ntfy: (await create({ name: 'ntfy', kind: 'ntfy', target: `${providers.url}/ntfy/ops-alerts`, secret: NTFY_TOKEN })).body,
      teams: (await create({ name: 'teams', kind: 'teams', target: `${providers.url}/webhookb2/abc@def/IncomingWebhook/123/456` })).body,
      alertmanager: (await create({ name: 'am', kind: 'alertmanager', target: `${providers.url}/alertmanager`, secret: ALERTMANAGER_TOKEN })).body,
    };
    for (const channel of Object.values(channels)) {
      expect(channel).toMatchObject({ status: 'active' });
      expect(channel.secret).toBeUndefined();
      const test = await server.http.post(`/api/alert-channels/${channel.channel_id}/test`, undefined, as(alice));
      expect(test.body).toMatchObject({ event: 'test', status: 'delivered', attempt: 1 });
    }
    expect(providers.telegram[0]!.body).toMatchObject({ chat_id: '-1001234567890', text: expect.stringContaining('Cronbeam: test alert') });
    expect(providers.pagerDuty[0]!.body).toMatchObject({ routing_key: ROUTING_KEY, event_action: 'trigger', payload: { severity: 'info', summary: expect.stringContaining('test alert') } });
    expect(providers.ntfy[0]!.body).toMatchObject({ topic: 'ops-alerts', title: 'Cronbeam: test alert', message: expect.stringContaining('A test alert') });
    expect(providers.teams[0]!.body.body[0]).toMatchObject({ type: 'TextBlock', text: 'Cronbeam: test alert' });
    expect(providers.alertmanager[0]!.body).toMatchObject({ version: '4', status: 'firing', alerts: [{ status: 'firing', labels: { alertname: 'CronbeamTest' } }] });
    const listed = (await server.http.get('/api/alert-channels', as(alice))).body as Array<Record<string, unknown>>;
    expect(JSON.stringify(listed)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(listed)).not.toContain(ROUTING_KEY);
    // Sealed at rest: no column holds a secret in clear.
    const stored = JSON.stringify(await sql(server, `SELECT * FROM alert_channels`));
    for (const secret of [BOT_TOKEN, ROUTING_KEY, NTFY_TOKEN, ALERTMANAGER_TOKEN]) expect(stored).not.toContain(secret);
    for (const channel of Object.values(channels)) await server.http.delete(`/api/alert-channels/${channel.channel_id}`, as(alice));
  });

  it('logs a provider refusal and retries it from the queue; the log does not carry the bot token', async () => {
    const wrongToken = '987654321:AAHwrong_token_0123456789abcdefgh';
    const channel = (await create({ name: 'tg-wrong', kind: 'telegram', target: '@cronbeam_ops', secret: wrongToken })).body;
    const test = await server.http.post(`/api/alert-channels/${channel.channel_id}/test`, undefined, as(alice));
    expect(test.body).toMatchObject({ status: 'failed', response_code: 401, attempt: 1 });
    const log = await until(() => deliveries(channel.channel_id), (d) => d.length === 3);
    expect(log.map((d) => [d.attempt, d.status, d.response_code])).toEqual([
      [3, 'failed', 401],
      [2, 'failed', 401],
      [1, 'failed', 401],
    ]);
    expect(JSON.stringify(log)).not.toContain(wrongToken);
    await server.http.delete(`/api/alert-channels/${channel.channel_id}`, as(alice));
  });

  it('triggers PagerDuty on failure and resolves on recovery under one dedup key per episode; the other providers alert once per episode', async () => {
    let healthy = false;
    target.on('/job', (_req, res) => {
      res.writeHead(healthy ? 200 : 500);
      res.end(healthy ? 'ok' : 'boom');
    });
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'nightly-export', url: `${target.url}/job`, notify_on_failure: true }), as(alice))).body;
    const only = { job_ids: [job.job_id] };
    await create({ name: 'pd', kind: 'pagerduty', target: `${providers.url}/v2/enqueue`, secret: ROUTING_KEY, ...only });
    await create({ name: 'tg', kind: 'telegram', target: '-1001234567890', secret: BOT_TOKEN, ...only });
    await create({ name: 'ntfy', kind: 'ntfy', target: `${providers.url}/ntfy/ops-alerts`, secret: NTFY_TOKEN, ...only });
    await create({ name: 'teams', kind: 'teams', target: `${providers.url}/webhookb2/abc@def/IncomingWebhook/123/456`, ...only });
    await create({ name: 'am', kind: 'alertmanager', target: `${providers.url}/alertmanager`, secret: ALERTMANAGER_TOKEN, ...only });
    const before = { pd: providers.pagerDuty.length, tg: providers.telegram.length, ntfy: providers.ntfy.length, teams: providers.teams.length, am: providers.alertmanager.length };
    const run = () => server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as(alice));
    const episode = async (n: number) => {
      healthy = false;
      await run();
      await run(); // the same episode: no second alert
      const [trigger] = (await providers.waitFor(() => providers.pagerDuty.slice(before.pd), 2 * n - 1)).slice(-1);
      healthy = true;
      await run();
      const [resolve] = (await providers.waitFor(() => providers.pagerDuty.slice(before.pd), 2 * n)).slice(-1);
      return { trigger: trigger!.body, resolve: resolve!.body };
    };

    const first = await episode(1);
    expect(first.trigger).toMatchObject({ routing_key: ROUTING_KEY, event_action: 'trigger', payload: { severity: 'error', source: 'nightly-export', summary: expect.stringContaining('Cronbeam: job "nightly-export" failed') } });
    expect(first.resolve).toEqual({ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: first.trigger.dedup_key });
    expect(providers.incidents.get(first.trigger.dedup_key!)).toBe('resolved');

    const second = await episode(2);
    expect(second.trigger.dedup_key).not.toBe(first.trigger.dedup_key);
    expect(second.resolve.dedup_key).toBe(second.trigger.dedup_key);
    expect(providers.incidents.get(second.trigger.dedup_key!)).toBe('resolved');

    // Two episodes: two failures and two recoveries on every channel, nothing for the repeated failures.
    const tg = await providers.waitFor(() => providers.telegram.slice(before.tg), 4);
    expect(tg.map((m) => m.body.text.split('\n')[0])).toEqual([
      'Cronbeam: job "nightly-export" failed',
      'Cronbeam: job "nightly-export" recovered',
      'Cronbeam: job "nightly-export" failed',
      'Cronbeam: job "nightly-export" recovered',
    ]);
    const ntfy = await providers.waitFor(() => providers.ntfy.slice(before.ntfy), 4);
    expect(ntfy.map((m) => [m.body.title, m.body.priority])).toEqual([
      ['Cronbeam: job "nightly-export" failed', 'high'],
      ['Cronbeam: job "nightly-export" recovered', 'default'],
      ['Cronbeam: job "nightly-export" failed', 'high'],
      ['Cronbeam: job "nightly-export" recovered', 'default'],
    ]);
    const teams = await providers.waitFor(() => providers.teams.slice(before.teams), 4);
    expect(teams.map((m) => m.body.body[0]!.text)).toEqual(tg.map((m) => m.body.text.split('\n')[0]));
    const am = await providers.waitFor(() => providers.alertmanager.slice(before.am), 4);
    expect(am.map((m) => m.body.status)).toEqual(['firing', 'resolved', 'firing', 'resolved']);
    const [firing, resolved] = am.map((m) => m.body.alerts[0]!);
    expect(firing).toMatchObject({ status: 'firing', labels: { alertname: 'CronbeamJobFailing', job_id: job.job_id }, endsAt: '0001-01-01T00:00:00Z' });
    expect(resolved).toMatchObject({ status: 'resolved', labels: firing!.labels, startsAt: firing!.startsAt, fingerprint: firing!.fingerprint });
    expect(Date.parse(resolved!.endsAt)).toBeGreaterThanOrEqual(Date.parse(resolved!.startsAt));
    expect(providers.pagerDuty.slice(before.pd)).toHaveLength(4);
  });

  it('resolves a monitor’s PagerDuty incident under the dedup key its failure triggered', async () => {
    const pd = (await create({ name: 'pd-monitor', kind: 'pagerduty', target: `${providers.url}/v2/enqueue`, secret: ROUTING_KEY, job_ids: [] })).body;
    const monitor = (await server.http.post('/api/monitors', { name: 'backup-box', period_seconds: 3600, channel_ids: [pd.channel_id] }, as(alice))).body;
    const ping = new URL(monitor.ping_url).pathname;
    const before = providers.pagerDuty.length;
    expect((await server.http.post(`${ping}/fail`)).status).toBe(200);
    const [trigger] = (await providers.waitFor(() => providers.pagerDuty.slice(before), 1)).map((e) => e.body);
    expect(trigger).toMatchObject({ event_action: 'trigger', payload: { summary: expect.stringContaining('Cronbeam: monitor "backup-box" is down'), component: 'monitor' } });
    expect((await server.http.post(ping)).status).toBe(200);
    const [, resolve] = (await providers.waitFor(() => providers.pagerDuty.slice(before), 2)).map((e) => e.body);
    expect(resolve).toEqual({ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: trigger!.dedup_key });
    expect(providers.incidents.get(trigger!.dedup_key!)).toBe('resolved');
  });

  it('adds an auto-pause to the PagerDuty incident its failures opened (same dedup key)', async () => {
    target.on('/pausing', (_req, res) => {
      res.writeHead(500);
      res.end('boom');
    });
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'pausing', url: `${target.url}/pausing`, notify_on_failure: true, auto_pause_after: 2 }), as(alice))).body;
    await create({ name: 'pd-pause', kind: 'pagerduty', target: `${providers.url}/v2/enqueue`, secret: ROUTING_KEY, job_ids: [job.job_id] });
    const before = providers.pagerDuty.length;
    const mine = () => providers.pagerDuty.slice(before).filter((e) => e.body.payload?.source === 'pausing');
    await server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as(alice));
    const [failure] = await providers.waitFor(mine, 1);
    await server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as(alice));
    const [, pause] = await providers.waitFor(mine, 2);
    expect(pause!.body).toMatchObject({ event_action: 'trigger', dedup_key: failure!.body.dedup_key, payload: { summary: expect.stringContaining('was paused after repeated failures') } });
  });
});
