import { AlertProviders } from '../fakes/alert-providers';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

const GENIE_KEY = 'eb243592-faa2-4ba2-a551-1afdf565c889';

/**
 * Opsgenie channels: a failure episode creates one alert (its alias is the
 * episode's), the recovery closes that alias; the API key is sent as
 * `GenieKey`, sealed at rest and never answered back.
 */
describe('alert channels: Opsgenie', () => {
  let server: TestServer;
  let providers: AlertProviders;
  let target: HttpTarget;
  let alice: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const create = (body: Record<string, unknown>) => server.http.post('/api/alert-channels', body, as(alice));

  beforeAll(async () => {
    providers = await AlertProviders.start({ botTokens: [], genieKeys: [GENIE_KEY] });
    target = await HttpTarget.start();
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' });
    alice = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
    await providers?.close();
    await target?.close();
  });

  it('refuses a channel without a usable key, naming the field', async () => {
    for (const secret of [undefined, 'short', 'has spaces in it 0123456789']) {
      const res = await create({ name: 'og', kind: 'opsgenie', target: `${providers.url}/v2/alerts`, ...(secret === undefined ? {} : { secret }) });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'secret']);
    }
  });

  it('creates one alert per failure episode and closes it on recovery, under one alias per episode', async () => {
    let healthy = false;
    target.on('/job', (_req, res) => {
      res.writeHead(healthy ? 200 : 500);
      res.end(healthy ? 'ok' : 'boom');
    });
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'nightly-billing', url: `${target.url}/job`, notify_on_failure: true }), as(alice))).body;
    const channel = await create({ name: 'og', kind: 'opsgenie', target: `${providers.url}/v2/alerts`, secret: GENIE_KEY, job_ids: [job.job_id] });
    expect(channel.status).toBe(200);
    expect(JSON.stringify(channel.body)).not.toContain(GENIE_KEY);
    expect(JSON.stringify((await server.http.get('/api/alert-channels', as(alice))).body)).not.toContain(GENIE_KEY);
    const [stored] = await sql<{ secret: string }>(server, `SELECT secret FROM alert_channels WHERE id = $1`, [channel.body.channel_id]);
    expect(stored!.secret).not.toContain(GENIE_KEY);

    const run = () => server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as(alice));
    const episode = async (n: number) => {
      healthy = false;
      await run();
      await run(); // the same episode: no second alert
      const [created] = (await providers.waitFor(() => providers.opsgenie, 2 * n - 1)).slice(-1);
      healthy = true;
      await run();
      const [closed] = (await providers.waitFor(() => providers.opsgenie, 2 * n)).slice(-1);
      return { created: created!, closed: closed! };
    };

    const first = await episode(1);
    expect(first.created.body).toMatchObject({ action: 'create', message: 'Cronbeam: job "nightly-billing" failed', priority: 'P2' });
    expect(first.created.request.headers.authorization).toBe(`GenieKey ${GENIE_KEY}`);
    const sent = JSON.parse(first.created.request.body);
    expect(sent).toMatchObject({ source: 'Cronbeam', entity: 'nightly-billing', details: { event: 'failed', job_id: job.job_id } });
    expect(first.closed.body).toMatchObject({ action: 'close', alias: first.created.body.alias });
    expect(first.closed.request.path).toContain('identifierType=alias');
    expect(providers.opsgenieAlerts.get(first.created.body.alias)).toBe('closed');

    const second = await episode(2);
    expect(second.created.body.alias).not.toBe(first.created.body.alias);
    expect(second.closed.body.alias).toBe(second.created.body.alias);
    expect(providers.opsgenieAlerts.get(second.created.body.alias)).toBe('closed');
    expect(providers.opsgenie.map((r) => r.body.action)).toEqual(['create', 'close', 'create', 'close']);

    type Delivery = { event: string; status: string; response_code: number | null };
    const log = await until(async () => (await server.http.get(`/api/alert-channels/${channel.body.channel_id}/deliveries`, as(alice))).body.deliveries as Delivery[], (d) => d.length === 4);
    expect(log.map((d) => [d.event, d.status, d.response_code])).toEqual([
      ['recovered', 'delivered', 202],
      ['failed', 'delivered', 202],
      ['recovered', 'delivered', 202],
      ['failed', 'delivered', 202],
    ]);
  });

  it('logs a refused key as failed attempts (retried from the queue) without the key', async () => {
    const wrongKey = 'ffffffff-0000-4000-8000-000000000000';
    const channel = (await create({ name: 'og-wrong', kind: 'opsgenie', target: `${providers.url}/v2/alerts`, secret: wrongKey, job_ids: [] })).body;
    const test = await server.http.post(`/api/alert-channels/${channel.channel_id}/test`, undefined, as(alice));
    expect(test.body).toMatchObject({ status: 'failed', response_code: 401 });
    const log = await until(async () => (await server.http.get(`/api/alert-channels/${channel.channel_id}/deliveries`, as(alice))).body.deliveries as unknown[], (d) => d.length === 3);
    expect(JSON.stringify(log)).not.toContain(wrongKey);
  });
});
