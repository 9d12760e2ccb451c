import { nextRun } from '@cronbeam/shared/cron';
import { AlertReceiver } from '../fakes/alert-receiver';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

type Monitor = {
  monitor_id: string;
  name: string;
  ping_url: string;
  status: string;
  period_seconds: number | null;
  cron_expression: string | null;
  time_zone: string;
  grace_seconds: number;
  channel_ids: string[] | null;
  last_ping_at: string | null;
  last_duration_ms: number | null;
  due_at: string | null;
};

/** Heartbeat monitors: ping URLs, a missed ping opening an episode, a ping closing it, /fail and /start, cron schedules, edit, pause, events, channels, the job limit. */
describe('heartbeat monitors', () => {
  let server: TestServer;
  let receiver: AlertReceiver;
  let alice: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });

  beforeAll(async () => {
    receiver = await AlertReceiver.start();
    // Loopback is allowed for the local receiver only.
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' });
    alice = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const pathOf = (monitor: Monitor, suffix = '') => `${new URL(monitor.ping_url).pathname}${suffix}`;
  const get = async (who: SignedInAccount, id: string): Promise<Monitor> =>
    ((await server.http.get('/api/monitors', as(who))).body as Monitor[]).find((m) => m.monitor_id === id)!;
  const mailsTo = async (email: string, subject: string) =>
    ((await server.http.get('/api/dev/outbox')).body as Array<{ to: string; subject: string }>).filter((m) => m.to === email && m.subject === subject);
  async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (ok(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('goes up on a ping, down (with one alert) when the next ping is overdue, and up again (one alert) on the next ping', async () => {
    const created = await server.http.post('/api/monitors', { name: 'backup-box', period_seconds: 1, grace_seconds: 1 }, as(alice));
    expect(created.status).toBe(200);
    const monitor: Monitor = created.body;
    expect(monitor).toMatchObject({ status: 'new', due_at: null });
    expect(monitor.ping_url).toMatch(/\/ping\/[A-Za-z0-9_-]{20,}$/);

    const ping = await server.http.get(pathOf(monitor));
    expect(ping.status).toBe(200);
    expect((await get(alice, monitor.monitor_id)).status).toBe('up');

    const down = await until(() => get(alice, monitor.monitor_id), (m) => m.status === 'down');
    expect(down.status).toBe('down');
    const downMails = await until(() => mailsTo(alice.email, 'Cronbeam: monitor "backup-box" is down'), (m) => m.length > 0);
    expect(downMails).toHaveLength(1);

    expect((await server.http.post(pathOf(monitor))).status).toBe(200);
    expect((await get(alice, monitor.monitor_id)).status).toBe('up');
    const upMails = await until(() => mailsTo(alice.email, 'Cronbeam: monitor "backup-box" is up again'), (m) => m.length > 0);
    expect(upMails).toHaveLength(1);
    await server.http.delete(`/api/monitors/${monitor.monitor_id}`, as(alice));
  });

  it('takes /fail as a failure and measures run time from /start', async () => {
    const monitor: Monitor = (await server.http.post('/api/monitors', { name: 'etl', period_seconds: 3600 }, as(alice))).body;
    expect((await server.http.get(pathOf(monitor, '/start'))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await server.http.get(pathOf(monitor));
    expect((await get(alice, monitor.monitor_id)).last_duration_ms).toBeGreaterThanOrEqual(100);
    expect((await server.http.post(pathOf(monitor, '/fail'))).status).toBe(200);
    expect((await get(alice, monitor.monitor_id)).status).toBe('down');
    await until(() => mailsTo(alice.email, 'Cronbeam: monitor "etl" is down'), (m) => m.length > 0);
    await server.http.delete(`/api/monitors/${monitor.monitor_id}`, as(alice));
  });

  it('answers 404 for unknown ping URLs, 405 for other methods, and 429 for a flood', async () => {
    expect((await server.http.get('/ping/unknown-token-0123456789')).status).toBe(404);
    expect((await server.http.get('/ping/unknown-token-0123456789/reboot')).status).toBe(404);
    const monitor: Monitor = (await server.http.post('/api/monitors', { name: 'noisy', period_seconds: 60 }, as(alice))).body;
    expect((await server.http.request('PUT', pathOf(monitor))).status).toBe(405);
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await server.http.get(pathOf(monitor))).status);
    expect(statuses.slice(0, 29).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    await server.http.delete(`/api/monitors/${monitor.monitor_id}`, as(alice));
  });

  it('validates definitions, scopes by user, and counts monitors toward the job limit', async () => {
    const bob = await signUpAndLogin(server);
    expect((await server.http.post('/api/monitors', { name: '', period_seconds: 60 }, as(bob))).body.detail[0].loc).toEqual(['body', 'name']);
    expect((await server.http.post('/api/monitors', { name: 'x', period_seconds: 0 }, as(bob))).body.detail[0].loc).toEqual(['body', 'period_seconds']);
    const mine: Monitor = (await server.http.post('/api/monitors', { name: 'one', period_seconds: 60 }, as(bob))).body;
    expect((await server.http.get('/api/monitors', as(alice))).body.some((m: Monitor) => m.monitor_id === mine.monitor_id)).toBe(false);
    expect((await server.http.delete(`/api/monitors/${mine.monitor_id}`, as(alice))).status).toBe(404);
    // Free plan: 2 jobs; one monitor and one job fill it.
    expect((await server.http.post('/api/jobs', jobDefinition(), as(bob))).status).toBe(200);
    const over = await server.http.post('/api/monitors', { name: 'two', period_seconds: 60 }, as(bob));
    expect(over.status).toBe(403);
    expect(over.body.detail).toMatchObject({ error: 'Job limit exceeded', job_count: 2, max_jobs: 2 });
    // And the other way round: the monitor takes a job's place.
    const jobOver = await server.http.post('/api/jobs', jobDefinition(), as(bob));
    expect(jobOver.status).toBe(403);
    expect(jobOver.body.detail).toMatchObject({ job_count: 2, max_jobs: 2 });
  });

  it('expects pings on a cron schedule in the monitor’s time zone, and misses one by the cron expression plus grace', async () => {
    const created = await server.http.post('/api/monitors', { name: 'nightly', cron_expression: '30  2 * * *', time_zone: 'Europe/Berlin', grace_seconds: 600 }, as(alice));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ cron_expression: '30 2 * * *', time_zone: 'Europe/Berlin', period_seconds: null, grace_seconds: 600, status: 'new' });
    await server.http.get(pathOf(created.body));
    const up = await get(alice, created.body.monitor_id);
    expect(up.status).toBe('up');
    // Due at the next 02:30 in Berlin (whatever today's offset) plus ten minutes; on the night the clocks skip 02:30 it is the shifted 03:30.
    const due = new Date(up.due_at!);
    expect(due).toEqual(new Date(nextRun('30 2 * * *', new Date(up.last_ping_at!), 'Europe/Berlin')!.getTime() + 600_000));
    const berlin = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(['02:30', '03:30']).toContain(berlin.format(new Date(due.getTime() - 600_000)));
    expect(due.getTime() - Date.parse(up.last_ping_at!)).toBeLessThanOrEqual(25 * 3600_000 + 600_000);

    // Every minute with no grace: the ping for the next minute boundary does not come, so the sweep takes it down.
    const everyMinute: Monitor = (await server.http.post('/api/monitors', { name: 'minutely', cron_expression: '* * * * *', grace_seconds: 0 }, as(alice))).body;
    await server.http.get(pathOf(everyMinute));
    const pinged = await get(alice, everyMinute.monitor_id);
    expect(new Date(pinged.due_at!).getUTCSeconds()).toBe(0);
    const down = await until(() => get(alice, everyMinute.monitor_id), (m) => m.status === 'down', 75_000);
    expect(down.status).toBe('down');
    const events = (await server.http.get(`/api/monitors/${everyMinute.monitor_id}/events`, as(alice))).body.events;
    expect(events.map((e: { kind: string }) => e.kind)).toEqual(['missed', 'success']);
    await until(() => mailsTo(alice.email, 'Cronbeam: monitor "minutely" is down'), (m) => m.length > 0);
    await server.http.delete(`/api/monitors/${created.body.monitor_id}`, as(alice));
    await server.http.delete(`/api/monitors/${everyMinute.monitor_id}`, as(alice));
  }, 120_000);

  it.each([
    [{ name: 'x' }, ['body', 'period_seconds']],
    [{ name: 'x', period_seconds: 60, cron_expression: '* * * * *' }, ['body', 'cron_expression']],
    [{ name: 'x', cron_expression: '61 * * * *' }, ['body', 'cron_expression']],
    [{ name: 'x', cron_expression: '0 * * * *', time_zone: 'Mars/Olympus' }, ['body', 'time_zone']],
    [{ name: 'x', period_seconds: 60, time_zone: 'Europe/Berlin' }, ['body', 'time_zone']],
    [{ name: 'x', period_seconds: 60, grace_seconds: -1 }, ['body', 'grace_seconds']],
    [{ name: 'x', period_seconds: 60, channel_ids: ['00000000-0000-4000-8000-000000000000'] }, ['body', 'channel_ids', 0]],
    [{ name: 'x', period_seconds: 60, every: 5 }, ['body']],
    [{ name: 'x'.repeat(51), period_seconds: 60 }, ['body', 'name']],
    [{ name: 'x', period_seconds: 1.5 }, ['body', 'period_seconds']],
    [{ name: 'x', period_seconds: '60' }, ['body', 'period_seconds']],
    [{ name: 'x', period_seconds: null, cron_expression: null }, ['body', 'period_seconds']],
    [{ name: 'x', cron_expression: 5 }, ['body', 'cron_expression']],
    [{ name: 'x', period_seconds: 60, grace_seconds: 1e10 }, ['body', 'grace_seconds']],
    [{ name: 'x', period_seconds: 60, channel_ids: [1] }, ['body', 'channel_ids', 0]],
    [{ name: 'x', period_seconds: 60, channel_ids: 'all' }, ['body', 'channel_ids']],
    [{ name: 'x', period_seconds: 60, channel_ids: ['not-a-uuid'] }, ['body', 'channel_ids', 0]],
  ])('refuses %j with a 422 naming the field', async (body, loc) => {
    const res = await server.http.post('/api/monitors', body, as(alice));
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
  });

  it('edits a monitor (same ping URL, deadline from the new schedule), pauses and resumes it, and lists its events', async () => {
    const monitor: Monitor = (await server.http.post('/api/monitors', { name: 'report', period_seconds: 3600, grace_seconds: 0 }, as(alice))).body;
    await server.http.get(pathOf(monitor, '/start'));
    await server.http.get(pathOf(monitor));
    const pinged = await get(alice, monitor.monitor_id);
    expect(Date.parse(pinged.due_at!) - Date.parse(pinged.last_ping_at!)).toBe(3600_000);

    const edited = await server.http.put(`/api/monitors/${monitor.monitor_id}`, { name: 'weekly report', cron_expression: '0 9 * * 1', time_zone: 'America/New_York', grace_seconds: 300 }, as(alice));
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'weekly report', period_seconds: null, cron_expression: '0 9 * * 1', time_zone: 'America/New_York', ping_url: monitor.ping_url, status: 'up' });
    const ny = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(ny.format(new Date(Date.parse(edited.body.due_at) - 300_000))).toBe('Mon 09:00');

    const paused = await server.http.post(`/api/monitors/${monitor.monitor_id}/pause`, undefined, as(alice));
    expect(paused.body).toMatchObject({ status: 'paused', due_at: null });
    // Pings of a paused monitor are recorded but change nothing, a failure ping included.
    expect((await server.http.get(pathOf(monitor, '/fail'))).status).toBe(200);
    expect((await get(alice, monitor.monitor_id)).status).toBe('paused');
    const resumed = await server.http.post(`/api/monitors/${monitor.monitor_id}/resume`, undefined, as(alice));
    expect(resumed.body).toMatchObject({ status: 'new' });
    await server.http.get(pathOf(monitor));
    expect((await get(alice, monitor.monitor_id)).status).toBe('up');

    const events = (await server.http.get(`/api/monitors/${monitor.monitor_id}/events`, as(alice))).body.events as Array<{ kind: string; duration_ms: number | null }>;
    expect(events.map((e) => e.kind)).toEqual(['success', 'fail', 'success', 'start']);
    expect(events[2]!.duration_ms).toEqual(expect.any(Number));

    const bob = await signUpAndLogin(server);
    expect((await server.http.put(`/api/monitors/${monitor.monitor_id}`, { name: 'mine', period_seconds: 60 }, as(bob))).status).toBe(404);
    expect((await server.http.post(`/api/monitors/${monitor.monitor_id}/pause`, undefined, as(bob))).status).toBe(404);
    expect((await server.http.get(`/api/monitors/${monitor.monitor_id}/events`, as(bob))).status).toBe(404);
    expect((await server.http.get('/api/monitors/not-a-uuid/events', as(alice))).status).toBe(404);
    expect((await server.http.put('/api/monitors/not-a-uuid', { name: 'x', period_seconds: 60 }, as(alice))).status).toBe(404);
    expect((await server.http.post('/api/monitors/not-a-uuid/pause', undefined, as(alice))).status).toBe(404);
    expect((await server.http.put(`/api/monitors/${monitor.monitor_id}`, { name: 'x' }, as(alice))).status).toBe(422);
    await server.http.delete(`/api/monitors/${monitor.monitor_id}`, as(alice));
  });

  it('alerts the channels the monitor chose (or, by default, those taking every alert)', async () => {
    await server.http.post('/api/alert-channels', { name: 'everything', kind: 'slack', target: receiver.url('/all') }, as(alice));
    const chosen = (await server.http.post('/api/alert-channels', { name: 'chosen', kind: 'webhook', target: receiver.url('/chosen'), job_ids: [] }, as(alice))).body;
    const picky: Monitor = (await server.http.post('/api/monitors', { name: 'picky', period_seconds: 60, channel_ids: [chosen.channel_id] }, as(alice))).body;
    expect(picky.channel_ids).toEqual([chosen.channel_id]);
    const plain: Monitor = (await server.http.post('/api/monitors', { name: 'plain', period_seconds: 60 }, as(alice))).body;

    await server.http.get(pathOf(picky, '/fail'));
    const [hook] = await receiver.waitFor('/chosen', 1);
    expect(JSON.parse(hook!.body)).toMatchObject({ event: 'failed', job: null, monitor: { monitor_id: picky.monitor_id, name: 'picky', ping_url: picky.ping_url } });
    expect(AlertReceiver.verifySignature(hook!, chosen.secret)).toBe(true);

    await server.http.get(pathOf(plain, '/fail'));
    const [slack] = await receiver.waitFor('/all', 1);
    expect(JSON.parse(slack!.body).text).toContain('Cronbeam: monitor "plain" is down');
    // Each monitor reached only its own channels.
    expect(receiver.received('/chosen')).toHaveLength(1);
    expect(receiver.received('/all')).toHaveLength(1);
    await server.http.delete(`/api/monitors/${picky.monitor_id}`, as(alice));
    await server.http.delete(`/api/monitors/${plain.monitor_id}`, as(alice));
  });

  it('is described in /api/openapi.json with its request body', async () => {
    const doc = (await server.http.get('/api/openapi.json')).body;
    for (const [path, method] of [['/api/monitors', 'post'], ['/api/monitors/{id}', 'put']] as const) {
      const body = doc.paths[path][method].requestBody.content['application/json'].schema;
      expect(body).toEqual({ $ref: '#/components/schemas/MonitorDefinition' });
      const schema = doc.components.schemas.MonitorDefinition;
      expect(Object.keys(schema.properties).sort()).toEqual(['alert_after_misses', 'channel_ids', 'cron_expression', 'grace_seconds', 'name', 'period_seconds', 'tags', 'time_zone']);
      expect(schema.required).toEqual(['name']);
    }
    for (const route of ['/api/monitors/{id}/pause', '/api/monitors/{id}/resume']) expect(doc.paths[route].post).toBeDefined();
    expect(doc.paths['/api/monitors/{id}/events'].get).toBeDefined();
  });

  it('slows down an address that keeps guessing tokens, but not the pings of its working monitors', async () => {
    const working: Monitor = (await server.http.post('/api/monitors', { name: 'behind-nat', period_seconds: 60 }, as(alice))).body;
    expect((await server.http.get(pathOf(working))).status).toBe(200);
    const guesses: number[] = [];
    for (let i = 0; i < 32; i++) guesses.push((await server.http.get(`/ping/guess-${String(i).padStart(12, '0')}`)).status);
    expect(guesses.slice(0, 28).every((s) => s === 404)).toBe(true);
    expect(guesses.at(-1)).toBe(429);
    expect((await server.http.get(pathOf(working))).status).toBe(200);
    // A monitor this address never pinged before waits like a guess.
    const fresh: Monitor = (await server.http.post('/api/monitors', { name: 'fresh', period_seconds: 60 }, as(alice))).body;
    expect((await server.http.get(pathOf(fresh))).status).toBe(429);
    await server.http.delete(`/api/monitors/${working.monitor_id}`, as(alice));
    await server.http.delete(`/api/monitors/${fresh.monitor_id}`, as(alice));
  });
});
