import { AlertReceiver } from '../fakes/alert-receiver';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';

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

  const create = (who: SignedInAccount, body: Record<string, unknown>) => server.http.post('/api/alert-channels', body, as(who));

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

  it('retries a failing receiver and logs every attempt', async () => {
    receiver.answer('/down', 503);
    const channel = (await create(alice, { name: 'down', kind: 'webhook', target: receiver.url('/down') })).body;
    const test = await server.http.post(`/api/alert-channels/${channel.channel_id}/test`, undefined, as(alice));
    expect(test.body).toMatchObject({ status: 'failed', attempt: 3, response_code: 503 });
    expect(receiver.received('/down')).toHaveLength(3);
    const log = (await server.http.get(`/api/alert-channels/${channel.channel_id}/deliveries`, as(alice))).body.deliveries;
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
});
