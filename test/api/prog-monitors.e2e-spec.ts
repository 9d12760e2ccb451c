import { MONITOR_MESSAGES } from '@cronbeam/shared/notifications/monitors';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

const RATE_LIMIT = 40;

interface KeyHolder {
  account: SignedInAccount;
  apiKey: string;
}

type Monitor = { monitor_id: string; name: string; ping_url: string; status: string; period_seconds: number | null; cron_expression: string | null; due_at: string | null };

/** Heartbeat monitors through the public API (/prog/monitors), by API key: the same monitors and rules as /api/monitors. */
describe('monitors on the public API (/prog/monitors)', () => {
  let server: TestServer;
  let alice: KeyHolder;
  let bob: KeyHolder;
  /** Alice's second key, for the validation cases: each key has its own rate limit. */
  let checker: KeyHolder;

  const keyOf = async (account: SignedInAccount): Promise<KeyHolder> => {
    const res = await server.http.post('/api/api-keys/generate', { name: 'monitors' }, { token: account.accessToken });
    expect(res.status).toBe(200);
    return { account, apiKey: res.body.api_key };
  };
  const headerAuth = (k: KeyHolder) => ({ headers: { 'X-API-Key': k.apiKey, 'X-User-ID': k.account.userId } });
  const bearerAuth = (k: KeyHolder) => ({ token: k.apiKey });

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PROG_RATE_LIMIT: String(RATE_LIMIT), PROG_RATE_LIMIT_WINDOW_SECONDS: '60' });
    const a = await signUpAndLogin(server);
    const b = await signUpAndLogin(server);
    await setPlan(server, a.userId, 'pro');
    alice = await keyOf(a);
    bob = await keyOf(b);
    checker = await keyOf(a);
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ['X-API-Key + X-User-ID', 'header'],
    ['Authorization: Bearer <key>', 'bearer'],
  ] as const)('creates, reads, lists, replaces, pauses, resumes, shows events of and deletes a monitor with %s', async (_label, style) => {
    const auth = style === 'header' ? headerAuth(alice) : bearerAuth(alice);
    const created = await server.http.post('/prog/monitors', { name: `backup-${style}`, cron_expression: '0  3 * * *', time_zone: 'Europe/Berlin', grace_seconds: 600 }, auth);
    expect(created.status).toBe(200);
    const monitor: Monitor = created.body;
    expect(monitor).toMatchObject({ name: `backup-${style}`, cron_expression: '0 3 * * *', time_zone: 'Europe/Berlin', period_seconds: null, grace_seconds: 600, status: 'new', due_at: null });
    const id = monitor.monitor_id;

    expect((await server.http.get(`/prog/monitors/${id}`, auth)).body).toEqual(monitor);
    const listed = await server.http.get('/prog/monitors', auth);
    expect(listed.status).toBe(200);
    expect(listed.body.map((m: Monitor) => m.monitor_id)).toContain(id);
    // The dashboard sees the same monitor.
    expect((await server.http.get('/api/monitors', { token: alice.account.accessToken })).body.find((m: Monitor) => m.monitor_id === id)).toEqual(monitor);

    const pinged = await server.http.post(new URL(monitor.ping_url).pathname);
    expect(pinged.status).toBe(200);
    expect((await server.http.get(`/prog/monitors/${id}`, auth)).body.status).toBe('up');

    const replaced = await server.http.put(`/prog/monitors/${id}`, { name: `renamed-${style}`, period_seconds: 3600 }, auth);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: `renamed-${style}`, period_seconds: 3600, cron_expression: null, time_zone: 'UTC', grace_seconds: 60, ping_url: monitor.ping_url, status: 'up' });
    // Due one new period (plus the default 60 s grace) after the last ping.
    expect(Date.parse(replaced.body.due_at) - Date.parse(replaced.body.last_ping_at)).toBe(3660_000);

    const paused = await server.http.post(`/prog/monitors/${id}/pause`, undefined, auth);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: 'paused', due_at: null });
    const resumed = await server.http.post(`/prog/monitors/${id}/resume`, undefined, auth);
    expect(resumed.status).toBe(200);
    expect(resumed.body.status).toBe('new');

    const events = await server.http.get(`/prog/monitors/${id}/events`, auth);
    expect(events.status).toBe(200);
    expect(events.headers.get('cache-control')).toBe('no-store');
    expect(events.body.events.map((e: { kind: string }) => e.kind)).toEqual(['success']);

    const deleted = await server.http.delete(`/prog/monitors/${id}`, auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Monitor deleted' });
    expect((await server.http.get(`/prog/monitors/${id}`, auth)).status).toBe(404);
    expect((await server.http.get(new URL(monitor.ping_url).pathname)).status).toBe(404);
  });

  it('isolates users: another key gets 404 on every route of the monitor and never sees it listed', async () => {
    const id = (await server.http.post('/prog/monitors', { name: 'alice-only', period_seconds: 60 }, headerAuth(alice))).body.monitor_id;
    for (const auth of [headerAuth(bob), bearerAuth(bob)]) {
      const results = await Promise.all([
        server.http.get(`/prog/monitors/${id}`, auth),
        server.http.put(`/prog/monitors/${id}`, { name: 'taken', period_seconds: 60 }, auth),
        server.http.post(`/prog/monitors/${id}/pause`, undefined, auth),
        server.http.post(`/prog/monitors/${id}/resume`, undefined, auth),
        server.http.get(`/prog/monitors/${id}/events`, auth),
        server.http.delete(`/prog/monitors/${id}`, auth),
      ]);
      expect(results.map((r) => [r.status, r.body])).toEqual(Array(6).fill([404, { detail: MONITOR_MESSAGES.notFound }]));
      expect((await server.http.get('/prog/monitors', auth)).body.map((m: Monitor) => m.monitor_id)).not.toContain(id);
    }
    const still = await server.http.get(`/prog/monitors/${id}`, headerAuth(alice));
    expect(still.body).toMatchObject({ name: 'alice-only', status: 'new' });
    expect((await server.http.get('/prog/monitors/not-a-uuid', headerAuth(alice))).status).toBe(404);
    await server.http.delete(`/prog/monitors/${id}`, headerAuth(alice));
  });

  it.each([
    [{ name: 'x' }, ['body', 'period_seconds'], MONITOR_MESSAGES.schedule],
    [{ name: '', period_seconds: 60 }, ['body', 'name'], MONITOR_MESSAGES.name],
    [{ name: 'x', period_seconds: 0 }, ['body', 'period_seconds'], MONITOR_MESSAGES.period],
    [{ name: 'x', period_seconds: 60, grace_seconds: -1 }, ['body', 'grace_seconds'], MONITOR_MESSAGES.grace],
    [{ name: 'x', cron_expression: '0 * * * *', time_zone: 'Mars/Olympus' }, ['body', 'time_zone'], MONITOR_MESSAGES.timeZone],
    [{ name: 'x', period_seconds: 60, channel_ids: ['00000000-0000-4000-8000-000000000000'] }, ['body', 'channel_ids', 0], MONITOR_MESSAGES.unknownChannel],
  ])('refuses %j with a 422 naming the field, on create and on replace', async (body, loc, msg) => {
    const created = await server.http.post('/prog/monitors', body, headerAuth(checker));
    expect(created.status).toBe(422);
    expect(created.body.detail[0]).toMatchObject({ loc, msg });
    const id = (await server.http.post('/prog/monitors', { name: 'valid', period_seconds: 60 }, headerAuth(checker))).body.monitor_id;
    const replaced = await server.http.put(`/prog/monitors/${id}`, body, bearerAuth(checker));
    expect(replaced.status).toBe(422);
    expect(replaced.body.detail[0]).toMatchObject({ loc, msg });
    await server.http.delete(`/prog/monitors/${id}`, headerAuth(checker));
  });

  it.each([
    ['no credentials', {}],
    ['X-API-Key without X-User-ID', { 'X-API-Key': 'KEY' }],
    ['X-User-ID of another user', { 'X-API-Key': 'KEY', 'X-User-ID': 'BOB' }],
    ['a made-up key', { 'X-API-Key': `cb_live_${'0'.repeat(48)}`, 'X-User-ID': 'ALICE' }],
    ['a dashboard access token instead of a key', { Authorization: 'Bearer ACCESS' }],
  ])('answers 401 Invalid API key for %s', async (_label, headers) => {
    const resolved = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [
        k,
        v.replace('KEY', alice.apiKey).replace('BOB', bob.account.userId).replace('ALICE', alice.account.userId).replace('ACCESS', alice.account.accessToken),
      ]),
    );
    for (const [method, path] of [
      ['GET', '/prog/monitors'],
      ['POST', '/prog/monitors'],
      ['GET', '/prog/monitors/00000000-0000-4000-8000-000000000000/events'],
    ]) {
      const res = await server.http.request(method, path, { headers: resolved, body: method === 'POST' ? { name: 'x', period_seconds: 60 } : undefined });
      expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, status: 401, body: { detail: 'Invalid API key' } });
    }
  });

  it('counts monitors toward the plan’s job limit: 403 with the same answer as jobs', async () => {
    // Bob is on the free plan: 2 jobs, which a job and a monitor fill.
    expect((await server.http.post('/prog/jobs', jobDefinition(), headerAuth(bob))).status).toBe(200);
    expect((await server.http.post('/prog/monitors', { name: 'first', period_seconds: 60 }, headerAuth(bob))).status).toBe(200);
    const over = await server.http.post('/prog/monitors', { name: 'second', period_seconds: 60 }, bearerAuth(bob));
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ detail: { error: 'Job limit exceeded', plan: 'free', job_count: 2, max_jobs: 2 } });
    expect((await server.http.get('/prog/monitors', bearerAuth(bob))).body).toHaveLength(1);
  });

  it('shares the per-key rate limit with the job routes (429 with Retry-After)', async () => {
    const busy = await keyOf(alice.account);
    for (let i = 0; i < RATE_LIMIT; i += 1) {
      const res = await server.http.get(i % 2 ? '/prog/jobs' : '/prog/monitors', bearerAuth(busy));
      expect(res.status).toBe(200);
    }
    const limited = await server.http.get('/prog/monitors', headerAuth(busy));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body).toEqual({ detail: 'Rate limit exceeded for this API key; retry later' });
  });
});
