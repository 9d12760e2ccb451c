import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition } from './jobs-fixtures';

jest.setTimeout(60_000);

type Monitor = { monitor_id: string; ping_url: string; status: string; last_duration_ms: number | null; due_at: string | null };

/** Heartbeat monitors: ping URLs, a missed ping opening an episode, a ping closing it, /fail and /start, the job limit. */
describe('heartbeat monitors', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });

  beforeAll(async () => {
    server = await startTestServer();
    alice = await signUpAndLogin(server);
  });

  afterAll(async () => {
    await server?.close();
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
});
