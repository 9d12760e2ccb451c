import { AlertReceiver } from '../fakes/alert-receiver';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestDatabase } from '../support/test-database';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import { until } from '../support/until';

jest.setTimeout(60_000);

/** Alert channels: CRUD, the target policy, test alerts, signed webhooks, Slack/Discord formats, retries and the episode rule. */
describe('alert channels', () => {
  let server: TestServer;
  let receiver: AlertReceiver;
  let target: HttpTarget;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });

  beforeAll(async () => {
    receiver = await AlertReceiver.start();
    target = await HttpTarget.start();
    // Loopback is allowed for the local receivers only; the target policy still applies to everything else.
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' });
    [alice, bob] = await Promise.all([signUpAndLogin(server), signUpAndLogin(server)]);
    await setPlan(server, alice.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await target?.close();
  });

  const create = (who: SignedInAccount, body: Record<string, unknown>, on: TestServer = server) => on.http.post('/api/alert-channels', body, as(who));
  type Delivery = { attempt: number; status: string; response_code: number | null };
  const deliveries = async (on: TestServer, who: SignedInAccount, channelId: string): Promise<Delivery[]> =>
    (await on.http.get(`/api/alert-channels/${channelId}/deliveries`, as(who))).body.deliveries;
  const queued = async (on: TestServer) => (await sql<{ n: number }>(on, 'SELECT count(*)::int AS n FROM alert_queue'))[0]!.n;

  it('creates a webhook channel with a signing secret shown once, lists only the owner’s channels, and deletes', async () => {
    const created = await create(alice, { name: 'ops-hook', kind: 'webhook', target: receiver.url('/hook-a') });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'ops-hook', kind: 'webhook', target: receiver.url('/hook-a'), job_ids: null });
    expect(created.body.secret).toMatch(/^whsec_/);
    const list = (await server.http.get('/api/alert-channels', as(alice))).body;
    expect(list.find((c: { channel_id: string }) => c.channel_id === created.body.channel_id).secret).toBeUndefined();
    expect((await server.http.get('/api/alert-channels', as(bob))).body).toEqual([]);
    expect((await server.http.delete(`/api/alert-channels/${created.body.channel_id}`, as(bob))).status).toBe(404);
    expect((await server.http.post(`/api/alert-channels/${created.body.channel_id}/test`, undefined, as(bob))).status).toBe(404);
    expect((await server.http.delete(`/api/alert-channels/${created.body.channel_id}`, as(alice))).status).toBe(200);
  });

  it.each([
    [{ name: '', kind: 'webhook', target: 'https://example.com/' }, ['body', 'name']],
    [{ name: 'x', kind: 'sms', target: 'https://example.com/' }, ['body', 'kind']],
    [{ name: 'x', kind: 'email', target: 'not-an-address' }, ['body', 'target']],
    [{ name: 'x', kind: 'slack', target: 'ftp://example.com/' }, ['body', 'target']],
    [{ name: 'x', kind: 'webhook', target: 'http://metadata.google.internal/computeMetadata/v1/' }, ['body', 'target']],
    [{ name: 'x', kind: 'webhook', target: 'https://example.com/', job_ids: ['00000000-0000-4000-8000-000000000000'] }, ['body', 'job_ids', 0]],
    [{ name: 'x', kind: 'webhook', target: 'https://example.com/', extra: 1 }, ['body']],
  ])('refuses %j with a 422 naming the field', async (body, loc) => {
    const res = await create(alice, body);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
  });

  it('sends a signed test alert to a webhook and logs the delivery', async () => {
    const channel = (await create(alice, { name: 'signed', kind: 'webhook', target: receiver.url('/signed') })).body;
    const test = await server.http.post(`/api/alert-channels/${channel.channel_id}/test`, undefined, as(alice));
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ event: 'test', status: 'delivered', response_code: 200, attempt: 1 });
    const [request] = receiver.received('/signed');
    expect(AlertReceiver.verifySignature(request!, channel.secret)).toBe(true);
    expect(AlertReceiver.verifySignature({ ...request!, body: `${request!.body} ` }, channel.secret)).toBe(false);
    expect(JSON.parse(request!.body)).toMatchObject({ event: 'test', job: null });
    const log = (await server.http.get(`/api/alert-channels/${channel.channel_id}/deliveries`, as(alice))).body.deliveries;
    expect(log).toHaveLength(1);
  });

  it('retries a failing receiver from the queue and logs every attempt', async () => {
    receiver.answer('/down', 503);
    const channel = (await create(alice, { name: 'down', kind: 'webhook', target: receiver.url('/down') })).body;
    const test = await server.http.post(`/api/alert-channels/${channel.channel_id}/test`, undefined, as(alice));
    // The answer is the first attempt; the two retries follow from the queue (1 s, then 4 s later).
    expect(test.body).toMatchObject({ status: 'failed', attempt: 1, response_code: 503 });
    await receiver.waitFor('/down', 3);
    const log = await until(() => deliveries(server, alice, channel.channel_id), (d) => d.length === 3);
    expect(await queued(server)).toBe(0);
    expect(receiver.received('/down')).toHaveLength(3);
    expect(log.map((d: { attempt: number; status: string }) => [d.attempt, d.status])).toEqual([
      [3, 'failed'],
      [2, 'failed'],
      [1, 'failed'],
    ]);
  });

  it('alerts the job’s channels once when a failure episode opens and once when it closes, in Slack and Discord formats', async () => {
    let healthy = false;
    target.on('/job', (_req, res) => {
      res.writeHead(healthy ? 200 : 500);
      res.end(healthy ? 'ok' : 'boom');
    });
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'watched', url: `${target.url}/job`, notify_on_failure: true }), as(alice))).body;
    const other = (await server.http.post('/api/jobs', jobDefinition({ name: 'unwatched', url: `${target.url}/job`, notify_on_failure: true }), as(alice))).body;
    await create(alice, { name: 'slack', kind: 'slack', target: receiver.url('/slack'), job_ids: [job.job_id] });
    await create(alice, { name: 'discord', kind: 'discord', target: receiver.url('/discord'), job_ids: [job.job_id] });
    const run = (id: string) => server.http.post(`/api/jobs/${id}/run`, undefined, as(alice));

    await run(job.job_id);
    await run(job.job_id); // same episode: no second alert
    await run(other.job_id); // a job the channels do not take
    const [slackFailure] = await receiver.waitFor('/slack', 1);
    expect(JSON.parse(slackFailure!.body).text).toContain('Cronbeam: job "watched" failed');
    const [discordFailure] = await receiver.waitFor('/discord', 1);
    expect(JSON.parse(discordFailure!.body).content).toContain('Cronbeam: job "watched" failed');

    healthy = true;
    await run(job.job_id);
    const slack = await receiver.waitFor('/slack', 2);
    expect(JSON.parse(slack[1]!.body).text).toContain('Cronbeam: job "watched" recovered');
    await receiver.waitFor('/discord', 2);
    // The episode's two alerts and nothing for the repeated failure or the other job.
    expect(receiver.received('/slack')).toHaveLength(2);
    expect(slack.every((r) => !r.body.includes('unwatched'))).toBe(true);
  });

  it('keeps a pending retry in the database across a restart, and the restarted server delivers it', async () => {
    const database = await createTestDatabase(5, { migrated: true });
    const env = { PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' };
    let first: TestServer | null = await startTestServer(env, database);
    let second: TestServer | null = null;
    try {
      const carol = await signUpAndLogin(first);
      receiver.answer('/restart', 503);
      const channel = (await create(carol, { name: 'restart', kind: 'webhook', target: receiver.url('/restart') }, first)).body;
      const test = await first.http.post(`/api/alert-channels/${channel.channel_id}/test`, undefined, as(carol));
      expect(test.body).toMatchObject({ status: 'failed', attempt: 1 });
      await first.close();
      first = null;
      expect(await queued({ database } as TestServer)).toBe(1);
      const failedBefore = receiver.received('/restart').length;

      // The receiver is back; only the restarted server can deliver now.
      receiver.answer('/restart', 200);
      second = await startTestServer(env, database);
      const log = await until(() => deliveries(second!, carol, channel.channel_id), (d) => d[0]?.status === 'delivered');
      expect(log[0]).toMatchObject({ status: 'delivered', attempt: failedBefore + 1, response_code: 200 });
      expect(log.filter((d) => d.status === 'failed')).toHaveLength(failedBefore);
      expect(await queued(second)).toBe(0);
      const requests = receiver.received('/restart');
      expect(requests).toHaveLength(failedBefore + 1);
      expect(AlertReceiver.verifySignature(requests.at(-1)!, channel.secret)).toBe(true);
    } finally {
      await first?.close();
      await second?.close();
      await database.drop();
    }
  });

  it('delivers each queued retry once when two instances share the queue', async () => {
    const database = await createTestDatabase(5, { migrated: true });
    const env = { PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' };
    const [one, two] = [await startTestServer(env, database), await startTestServer(env, database)];
    try {
      const dave = await signUpAndLogin(one);
      receiver.answer('/shared', 503);
      const channel = (await create(dave, { name: 'shared', kind: 'webhook', target: receiver.url('/shared') }, one)).body;
      const alerts = 6;
      for (let i = 0; i < alerts; i++) {
        const on = i % 2 ? two : one;
        expect((await on.http.post(`/api/alert-channels/${channel.channel_id}/test`, undefined, as(dave))).body).toMatchObject({ attempt: 1, status: 'failed' });
      }
      receiver.answer('/shared', 200);
      // Both instances' workers read the queue; once it is empty nothing more can be sent.
      await until(() => queued(one), (n) => n === 0);
      const log = await deliveries(one, dave, channel.channel_id);
      const delivered = log.filter((d) => d.status === 'delivered');
      expect(delivered).toHaveLength(alerts);
      expect(receiver.received('/shared')).toHaveLength(log.length);
      expect(receiver.received('/shared').length).toBeLessThanOrEqual(alerts * 3);
    } finally {
      await one.close();
      await two.close();
      await database.drop();
    }
  });
});
