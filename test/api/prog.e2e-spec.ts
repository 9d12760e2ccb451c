import { nextRun } from '@cronbeam/shared/cron/cron-schedule';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, plantRuns, setPlan, shuffledMinutes, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

const RATE_LIMIT = 30;

interface KeyHolder {
  account: SignedInAccount;
  apiKey: string;
  keyId: string;
}

describe('public API (/prog)', () => {
  let server: TestServer;
  let alice: KeyHolder;
  let bob: KeyHolder;

  const keyOf = async (account: SignedInAccount, name = 'key'): Promise<KeyHolder> => {
    const res = await server.http.post('/api/api-keys/generate', { name }, { token: account.accessToken });
    return { account, apiKey: res.body.api_key, keyId: res.body.key_id };
  };
  /** The two ways to present a key. */
  const headerAuth = (k: KeyHolder) => ({ headers: { 'X-API-Key': k.apiKey, 'X-User-ID': k.account.userId } });
  const bearerAuth = (k: KeyHolder) => ({ token: k.apiKey });

  beforeAll(async () => {
    // No scheduler: a job due at the next */5 boundary would otherwise be claimed between two reads and change.
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PROG_RATE_LIMIT: String(RATE_LIMIT), PROG_RATE_LIMIT_WINDOW_SECONDS: '60' });
    const a = await signUpAndLogin(server);
    const b = await signUpAndLogin(server);
    await setPlan(server, a.userId, 'pro');
    alice = await keyOf(a);
    bob = await keyOf(b);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers GET /prog/ping without a key', async () => {
    const res = await server.http.get('/prog/ping');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'pong' });
  });

  it.each([
    ['X-API-Key + X-User-ID', 'header'],
    ['Authorization: Bearer <key>', 'bearer'],
  ] as const)('runs the whole job lifecycle with %s', async (_label, style) => {
    const auth = style === 'header' ? headerAuth(alice) : bearerAuth(alice);
    const name = `prog-${style}`;
    const created = await server.http.post('/prog/jobs', jobDefinition({ name, cron_expression: '0 9 * * 1-5', notify_on_failure: true }), auth);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name, status: 'pending', cron_expression: '0 9 * * 1-5', notify_on_failure: true });
    expect(created.body.next_run_at).toBe(nextRun('0 9 * * 1-5')?.toISOString());
    const id = created.body.job_id;

    const list = await server.http.get('/prog/jobs', auth);
    expect(list.status).toBe(200);
    expect(list.body.map((j: { job_id: string }) => j.job_id)).toContain(id);
    // The creation alone answers the signing secret.
    const { signing_secret: secret, ...job } = created.body;
    expect(secret).toMatch(/^cbsig_/);
    expect((await server.http.get(`/prog/jobs/${id}`, auth)).body).toEqual(job);

    const updated = await server.http.put(`/prog/jobs/${id}`, jobDefinition({ name, url: 'https://example.com/v2', cron_expression: '30 14 * * SUN' }), auth);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ url: 'https://example.com/v2', cron_expression: '30 14 * * SUN', notify_on_failure: false });
    expect(updated.body.next_run_at).toBe(nextRun('30 14 * * SUN')?.toISOString());

    const paused = await server.http.post(`/prog/jobs/${id}/pause`, undefined, auth);
    expect(paused.body).toMatchObject({ status: 'paused', next_run_at: null });
    const resumed = await server.http.post(`/prog/jobs/${id}/resume`, undefined, auth);
    expect(resumed.body).toMatchObject({ status: 'scheduled', next_run_at: nextRun('30 14 * * SUN')?.toISOString() });

    const logs = await server.http.get(`/prog/jobs/${id}/logs`, auth);
    expect(logs.status).toBe(200);
    expect(logs.body).toEqual({ logs: [] });

    const del = await server.http.delete(`/prog/jobs/${id}`, auth);
    expect(del.status).toBe(200);
    expect((await server.http.get(`/prog/jobs/${id}`, auth)).status).toBe(404);
  });

  it('sees the same jobs as the dashboard API', async () => {
    const viaDashboard = await server.http.post('/api/jobs', jobDefinition({ name: 'from-dashboard' }), { token: alice.account.accessToken });
    const viaProg = await server.http.get(`/prog/jobs/${viaDashboard.body.job_id}`, headerAuth(alice));
    const { signing_secret: _secret, ...job } = viaDashboard.body;
    expect(viaProg.body).toEqual(job);
  });

  it('returns the last 50 finished runs, newest first', async () => {
    const id = (await server.http.post('/prog/jobs', jobDefinition({ name: 'prog-logged' }), headerAuth(alice))).body.job_id;
    await plantRuns(server, id, alice.account.userId, shuffledMinutes('2026-02-01T10:00:00Z', 55).map((executedAt) => ({ executedAt })));
    const res = await server.http.get(`/prog/jobs/${id}/logs`, headerAuth(alice));
    const times = res.body.logs.map((l: { executed_at: string }) => l.executed_at);
    expect(times).toHaveLength(50);
    expect(times[0]).toBe('2026-02-01T10:54:00.000Z');
    expect(times[49]).toBe('2026-02-01T10:05:00.000Z');
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('answers 422 with the spec messages and 403 at the job limit', async () => {
    const bad = await server.http.post('/prog/jobs', { name: 'bad name', url: 'x', cron_expression: '* * *' }, headerAuth(bob));
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'name'], msg: 'Name can only contain letters, numbers, hyphens (-), and underscores (_)' }),
        expect.objectContaining({ loc: ['body', 'url'], msg: 'Please enter a valid URL' }),
        expect.objectContaining({ loc: ['body', 'cron_expression'], msg: 'Cron expression must have 5 fields, or 6 with seconds first' }),
      ]),
    );
    // Bob is on the free plan: 2 jobs.
    for (let i = 0; i < 2; i += 1) expect((await server.http.post('/prog/jobs', jobDefinition(), headerAuth(bob))).status).toBe(200);
    const over = await server.http.post('/prog/jobs', jobDefinition(), bearerAuth(bob));
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ detail: { error: 'Job limit exceeded', plan: 'free', job_count: 2, max_jobs: 2 } });
  });

  it('isolates users: another key gets 404 on the job and never sees it listed', async () => {
    const id = (await server.http.post('/prog/jobs', jobDefinition({ name: 'alice-only' }), headerAuth(alice))).body.job_id;
    for (const auth of [headerAuth(bob), bearerAuth(bob)]) {
      const results = await Promise.all([
        server.http.get(`/prog/jobs/${id}`, auth),
        server.http.put(`/prog/jobs/${id}`, jobDefinition(), auth),
        server.http.post(`/prog/jobs/${id}/pause`, undefined, auth),
        server.http.post(`/prog/jobs/${id}/resume`, undefined, auth),
        server.http.get(`/prog/jobs/${id}/logs`, auth),
        server.http.delete(`/prog/jobs/${id}`, auth),
      ]);
      expect(results.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
      expect((await server.http.get('/prog/jobs', auth)).body.map((j: { job_id: string }) => j.job_id)).not.toContain(id);
    }
    expect((await server.http.get(`/prog/jobs/${id}`, headerAuth(alice))).body.status).toBe('pending');
  });

  it.each([
    ['no credentials', {}],
    ['X-API-Key without X-User-ID', { 'X-API-Key': 'KEY' }],
    ['X-User-ID of another user', { 'X-API-Key': 'KEY', 'X-User-ID': 'BOB' }],
    ['a made-up key', { 'X-API-Key': `cb_live_${'0'.repeat(48)}`, 'X-User-ID': 'ALICE' }],
    ['a malformed key', { 'X-API-Key': 'hello', 'X-User-ID': 'ALICE' }],
    ['a bearer key with a mismatched X-User-ID', { Authorization: 'Bearer KEY', 'X-User-ID': 'BOB' }],
    ['a dashboard access token instead of a key', { Authorization: 'Bearer ACCESS' }],
  ])('answers 401 Invalid API key for %s', async (_label, headers) => {
    const resolved = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [
        k,
        v.replace('KEY', alice.apiKey).replace('BOB', bob.account.userId).replace('ALICE', alice.account.userId).replace('ACCESS', alice.account.accessToken),
      ]),
    );
    const res = await server.http.get('/prog/jobs', { headers: resolved });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid API key' });
  });

  it('records when a key was last used', async () => {
    const holder = await keyOf(alice.account, 'usage');
    await server.http.get('/prog/jobs', headerAuth(holder));
    const listed = (await server.http.get('/api/api-keys', { token: alice.account.accessToken })).body.find((k: { key_id: string }) => k.key_id === holder.keyId);
    expect(Date.parse(listed.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('rate-limits each key with 429 and Retry-After, without affecting other keys', async () => {
    const busy = await keyOf(alice.account, 'busy');
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i += 1) statuses.push((await server.http.get('/prog/jobs', bearerAuth(busy))).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await server.http.get('/prog/jobs', headerAuth(busy));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({ detail: 'Rate limit exceeded for this API key; retry later' });
    expect((await server.http.get('/prog/jobs', bearerAuth(bob))).status).toBe(200);
  });

  it('never writes API keys to the logs', async () => {
    expect(server.logs.text()).not.toContain(alice.apiKey);
    expect(server.logs.text()).not.toContain(bob.apiKey);
    expect(await sql(server, 'SELECT 1 FROM api_keys WHERE secret_hash = $1', [alice.apiKey])).toHaveLength(0);
  });
});
