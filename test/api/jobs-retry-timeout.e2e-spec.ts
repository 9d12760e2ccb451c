import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';

jest.setTimeout(90_000);

type Issue = { loc: Array<string | number>; msg: string };

/**
 * A job's retry policy (count, waits, which failures, Retry-After) and its
 * request time limit within the plan, through the API and the scheduler
 * against a local target. The server's ceiling (EXECUTION_TIMEOUT_MS) is
 * 40 s here, so the plans' own limits are what the API enforces.
 */
describe('retry policy and per-plan timeouts', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let pro: SignedInAccount;
  let free: SignedInAccount;
  const as = (account: SignedInAccount) => ({ token: account.accessToken });

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, ADMIN_TOKEN: TEST_ADMIN_TOKEN, EXECUTION_TIMEOUT_MS: '40000' });
    db = await SchedulerFixtures.connect(server.database.url);
    pro = await signUpAndLogin(server);
    free = await signUpAndLogin(server);
    await setPlan(server, pro.userId, 'pro');
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  /** Creates the job through the API (a yearly schedule), then makes it due in 200 ms, once. */
  const fireOnce = async (path: string, extra: Record<string, unknown>, account = pro): Promise<string> => {
    const created = await server.http.post('/api/jobs', jobDefinition({ url: `${target.url}${path}`, cron_expression: '0 0 1 1 *', ...extra }), as(account));
    expect(created.status).toBe(200);
    await db.query(`UPDATE jobs SET next_run_at = now() + interval '200 milliseconds' WHERE id = $1`, [created.body.job_id]);
    return created.body.job_id as string;
  };

  const finishedRuns = (jobId: string, count: number) =>
    eventually(async () => {
      const runs = await db.runs(jobId);
      return runs.length === count && runs.every((r) => r.state === 'done') ? runs : null;
    }, 60_000, `${count} finished run(s)`);

  const answer = (status: number, headers: Record<string, string> = {}) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(`status ${status}`);
  };

  it('answers the plan default, stores a policy with its lists sorted and once, and gives it back unchanged', async () => {
    const plain = await server.http.post('/api/jobs', jobDefinition(), as(pro));
    expect(plain.body.retry).toEqual(DEFAULT_RETRY_POLICY);
    expect(DEFAULT_RETRY_POLICY).toEqual({ attempts: 3, initial_backoff_seconds: null, max_backoff_seconds: 3600, retry_on: ['timeout', 'network', '5xx'], retry_on_status: [] });

    const sent = { attempts: 7, initial_backoff_seconds: 5, max_backoff_seconds: 60, retry_on: ['429', 'timeout', '429'], retry_on_status: [409, 408, 409] };
    const job = await server.http.post('/api/jobs', jobDefinition({ retry: sent }), as(pro));
    expect(job.status).toBe(200);
    expect(job.body.retry).toEqual({ attempts: 7, initial_backoff_seconds: 5, max_backoff_seconds: 60, retry_on: ['timeout', '429'], retry_on_status: [408, 409] });
    const read = await server.http.get(`/api/jobs/${job.body.job_id}`, as(pro));
    const put = await server.http.put(`/api/jobs/${job.body.job_id}`, read.body, as(pro));
    expect(put.status).toBe(200);
    expect({ ...put.body, updated_at: null }).toEqual({ ...read.body, updated_at: null });
  });

  it.each([
    ['too many attempts', { attempts: 11 }, ['body', 'retry', 'attempts'], 'retry.attempts must be a whole number from 0 to 10'],
    ['a fractional attempt count', { attempts: 1.5 }, ['body', 'retry', 'attempts'], 'retry.attempts must be a whole number from 0 to 10'],
    ['an unknown outcome', { retry_on: ['4xx'] }, ['body', 'retry', 'retry_on', 0], 'retry.retry_on must list some of: timeout, network, 5xx, 429'],
    ['a 5xx among the 4xx statuses', { retry_on_status: [404, 503] }, ['body', 'retry', 'retry_on_status', 1], 'retry.retry_on_status must list up to 20 different 4xx status codes (400-499)'],
    ['a maximum below the initial wait', { initial_backoff_seconds: 30, max_backoff_seconds: 10 }, ['body', 'retry', 'max_backoff_seconds'], 'retry.max_backoff_seconds must not be below retry.initial_backoff_seconds'],
    ['an unknown field', { tries: 3 }, ['body', 'retry'], 'Unknown field: tries'],
    ['not an object', 'always', ['body', 'retry'], 'retry must be an object with attempts, initial_backoff_seconds, max_backoff_seconds, retry_on and retry_on_status'],
  ] as const)('refuses %s with a 422 naming the field', async (_label, retry, loc, msg) => {
    const res = await server.http.post<{ detail: Issue[] }>('/api/jobs', jobDefinition({ retry }), as(pro));
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual(expect.objectContaining({ loc, msg }));
  });

  it('refuses a time limit over the plan with a 422 naming the field and the plan, and accepts the plan maximum', async () => {
    const over = await server.http.post<{ detail: Issue[] }>('/api/jobs', jobDefinition({ timeout_seconds: 31 }), as(free));
    expect(over.status).toBe(422);
    expect(over.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'timeout_seconds'], msg: 'timeout_seconds: the free plan allows requests of at most 30 seconds; 31 asked' }),
    ]);
    expect((await server.http.post('/api/jobs', jobDefinition({ timeout_seconds: 30 }), as(free))).status).toBe(200);
    // On pro the plan allows 1800 s; this server's ceiling (40 s) is the lower limit, and the message says so.
    const overServer = await server.http.post<{ detail: Issue[] }>('/api/jobs', jobDefinition({ timeout_seconds: 300 }), as(pro));
    expect(overServer.status).toBe(422);
    expect(overServer.body.detail[0]).toMatchObject({ loc: ['body', 'timeout_seconds'], msg: 'timeout_seconds: this server allows requests of at most 40 seconds (the pro plan would allow 1800); 300 asked' });
    const job = await server.http.post('/api/jobs', jobDefinition({ timeout_seconds: 40 }), as(pro));
    expect(job.status).toBe(200);
    const update = await server.http.put<{ detail: Issue[] }>(`/api/jobs/${job.body.job_id}`, { ...job.body, timeout_seconds: 41 }, as(pro));
    expect(update.status).toBe(422);
    expect(update.body.detail[0].loc).toEqual(['body', 'timeout_seconds']);
  });

  it('retries as many times as the policy says, waiting the initial backoff doubled up to its maximum', async () => {
    target.on('/always-503', answer(503));
    const jobId = await fireOnce('/always-503', { retry: { attempts: 3, initial_backoff_seconds: 1, max_backoff_seconds: 2 } });
    const runs = await finishedRuns(jobId, 4);
    expect(runs.map((r) => [r.attempt, r.trigger, r.status, r.response_code])).toEqual([
      [1, 'schedule', 'failed', 503],
      [2, 'retry', 'failed', 503],
      [3, 'retry', 'failed', 503],
      [4, 'retry', 'failed', 503],
    ]);
    // Each retry is due its wait after the failure before it: 1 s, then 2 s, then 2 s again (4 s capped at the maximum).
    // Read off the stored due times (set when the failure is recorded, a few ms after it), not off arrival gaps a busy machine stretches.
    const waits = runs.slice(1).map((r, i) => new Date(r.due_at).getTime() - (new Date(runs[i].executed_at).getTime() + runs[i].duration_ms));
    expect(waits[0]).toBeGreaterThanOrEqual(999);
    expect(waits[0]).toBeLessThan(1_500);
    expect(waits[1]).toBeGreaterThanOrEqual(1_999);
    expect(waits[1]).toBeLessThan(2_500);
    expect(waits[2]).toBeGreaterThanOrEqual(1_999);
    expect(waits[2]).toBeLessThan(2_500);
    // And no request came before its retry was due (1 ms for the two clocks' rounding).
    const arrivals = target.requests('/always-503').map((r) => r.arrivedAt);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(999);
    expect(arrivals[2] - arrivals[1]).toBeGreaterThanOrEqual(1_999);
    expect(arrivals[3] - arrivals[2]).toBeGreaterThanOrEqual(1_999);
    await schedulerPassed(db, `${target.url}/sentinel`, 2_500);
    expect(target.requests('/always-503')).toHaveLength(4);
    expect((await db.jobRow(jobId)).status).toBe('failed');
  });

  it('retries only the failures the policy names: a chosen 4xx and 429, not a 5xx it left out', async () => {
    target.on('/conflict', answer(409));
    target.on('/limited', answer(429));
    target.on('/broken', answer(500));
    target.on('/not-found', answer(404));
    const policy = { attempts: 1, initial_backoff_seconds: 1, retry_on: ['429'], retry_on_status: [409] };
    const conflict = await fireOnce('/conflict', { retry: policy });
    const limited = await fireOnce('/limited', { retry: policy });
    const broken = await fireOnce('/broken', { retry: policy });
    const notFound = await fireOnce('/not-found', { retry: policy });
    expect((await finishedRuns(conflict, 2)).map((r) => r.response_code)).toEqual([409, 409]);
    expect((await finishedRuns(limited, 2)).map((r) => r.response_code)).toEqual([429, 429]);
    await schedulerPassed(db, `${target.url}/sentinel`, 1_500);
    expect(await db.runs(broken)).toHaveLength(1);
    expect(await db.runs(notFound)).toHaveLength(1);
  });

  it('does not retry at all with attempts 0, and retries a refused connection only when network is chosen', async () => {
    target.on('/zero', answer(503));
    const zero = await fireOnce('/zero', { retry: { attempts: 0 } });
    // A port nothing listens on: the connection is refused.
    const closed = await HttpTarget.start();
    const refusedUrl = closed.url;
    await closed.close();
    const make = async (retryOn: string[]) => {
      const created = await server.http.post('/api/jobs', jobDefinition({ url: `${refusedUrl}/x`, cron_expression: '0 0 1 1 *', retry: { attempts: 1, initial_backoff_seconds: 1, retry_on: retryOn } }), as(pro));
      await db.query(`UPDATE jobs SET next_run_at = now() + interval '200 milliseconds' WHERE id = $1`, [created.body.job_id]);
      return created.body.job_id as string;
    };
    const network = await make(['network']);
    const statusOnly = await make(['5xx']);
    const retried = await finishedRuns(network, 2);
    expect(retried.every((r) => /^Connection refused/.test(r.error_message))).toBe(true);
    await schedulerPassed(db, `${target.url}/sentinel`, 1_500);
    expect(await db.runs(statusOnly)).toHaveLength(1);
    expect(await db.runs(zero)).toHaveLength(1);
    expect(target.requests('/zero')).toHaveLength(1);
  });

  it('honours Retry-After over the backoff, but never past the maximum', async () => {
    let soon = 0;
    target.on('/retry-after-1', (req, res) => {
      soon++;
      answer(soon === 1 ? 429 : 200, soon === 1 ? { 'retry-after': '1' } : {})(req, res);
    });
    let late = 0;
    const lateDate = () => new Date(Date.now() + 600_000).toUTCString();
    target.on('/retry-after-date', (req, res) => {
      late++;
      answer(late === 1 ? 503 : 200, late === 1 ? { 'retry-after': lateDate() } : {})(req, res);
    });
    // Backoff 30 s: a retry within seconds can only come from Retry-After (1 s), or from the maximum (2 s) cutting a 10-minute date.
    const soonJob = await fireOnce('/retry-after-1', { retry: { attempts: 1, initial_backoff_seconds: 30, max_backoff_seconds: 60, retry_on: ['429'] } });
    const lateJob = await fireOnce('/retry-after-date', { retry: { attempts: 1, initial_backoff_seconds: 30, max_backoff_seconds: 30 } });
    await finishedRuns(soonJob, 2);
    const [a, b] = target.requests('/retry-after-1').map((r) => r.arrivedAt);
    expect(b - a).toBeGreaterThanOrEqual(999);
    expect(b - a).toBeLessThan(5_000);
    expect((await db.jobRow(soonJob)).status).toBe('success');
    // The date asks for 10 minutes; the maximum is 30 s: the retry is due 30 s after the failure, not 10 minutes.
    const runs = await eventually(async () => {
      const r = await db.runs(lateJob);
      return r.length === 2 ? r : null;
    });
    const waitMs = new Date(runs[1].due_at).getTime() - new Date(runs[0].executed_at).getTime();
    expect(waitMs).toBeGreaterThanOrEqual(29_000);
    expect(waitMs).toBeLessThan(31_000);
  });

  it('lets a paid job wait for a slow answer past the free limit, with its lease covering its own limit only', async () => {
    // The first attempt fails at once; its retry (leased from the queue) is answered after 31 s: past 30 s, within 38 s.
    let calls = 0;
    target.on('/slow-answer', (_req, res) => {
      calls++;
      if (calls === 1) return answer(503)(_req, res);
      setTimeout(() => answer(200)(_req, res), 31_000);
    });
    target.on('/free-slow', (_req, res) => setTimeout(() => answer(200)(_req, res), 31_000));
    const paid = await fireOnce('/slow-answer', { timeout_seconds: 38, retry: { attempts: 1, initial_backoff_seconds: 1 } });
    const freeJob = await fireOnce('/free-slow', { retry: { attempts: 0 } }, free);

    const running = await eventually(async () => {
      const runs = await db.runs(paid);
      return runs.find((r) => r.attempt === 2 && r.state === 'running') ?? null;
    }, 10_000, 'the retry in flight');
    const grace = Number(FAST_SCHEDULER_ENV.SCHEDULER_LEASE_GRACE_MS);
    const leaseMs = new Date(running.lease_expires_at).getTime() - new Date(running.due_at).getTime();
    expect(leaseMs).toBeGreaterThanOrEqual(38_000 + grace - 1_000);
    expect(leaseMs).toBeLessThanOrEqual(38_000 + grace + 1_000);
    const [freeRunning] = await sql<{ state: string; lease_expires_at: Date; due_at: Date }>(server, `SELECT state, lease_expires_at, due_at FROM job_runs WHERE job_id = $1`, [freeJob]);
    expect(freeRunning.state).toBe('running');
    // A job without its own limit holds its run for the default 30 s + grace, not the server's 40 s ceiling.
    expect(new Date(freeRunning.lease_expires_at).getTime() - new Date(freeRunning.due_at).getTime()).toBeLessThanOrEqual(30_000 + grace + 1_000);

    const [, done] = await finishedRuns(paid, 2);
    expect(done).toMatchObject({ status: 'success', response_code: 200 });
    expect(done.duration_ms).toBeGreaterThanOrEqual(31_000);
    const [timedOut] = await finishedRuns(freeJob, 1);
    expect(timedOut).toMatchObject({ status: 'failed', error_message: 'Timeout: no response within 30000 ms' });
  });
});
