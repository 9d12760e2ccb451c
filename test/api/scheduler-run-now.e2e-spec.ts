import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';

jest.setTimeout(60_000);

describe('scheduler: run now and test request', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  const as = (a: SignedInAccount) => ({ token: a.accessToken });

  beforeAll(async () => {
    target = await HttpTarget.start();
    // Runs are claimed 1.2 s ahead (not the fast set's 0.4 s): the withdrawal test pauses a job between its claim
    // and its due instant, and a pause request on a loaded machine can take longer than 0.4 s.
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, SCHEDULER_LOOKAHEAD_MS: '1200' });
    db = await SchedulerFixtures.connect(server.database.url);
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
    await db.query(`UPDATE accounts SET plan = 'pro' WHERE id = $1`, [alice.userId]); // room for more than the free plan's 2 jobs
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  async function createJob(account: SignedInAccount, path: string): Promise<string> {
    const res = await server.http.post('/api/jobs', { name: `job-${path.slice(1)}`, url: `${target.url}${path}`, method: 'POST', body: 'ping', cron_expression: '0 0 1 1 *' }, as(account));
    expect(res.status).toBe(200);
    return res.body.job_id;
  }

  it('runs a saved job now: answers the outcome, logs a manual run, counts it, sets the job status', async () => {
    const jobId = await createJob(alice, '/manual');
    const res = await server.http.post(`/api/jobs/${jobId}/run`, undefined, as(alice));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ trigger: 'manual', attempt: 1, status: 'success', response_code: 200, response_body: '{"ok":true}', error_message: null });
    expect(target.requests('/manual')).toHaveLength(1);
    expect(target.requests('/manual')[0].body).toBe('ping');
    expect(target.requests('/manual')[0].headers['x-cronbeam-execution-id']).toBe(res.body.run_id);

    const logs = await eventually(async () => {
      const r = await server.http.get(`/api/jobs/${jobId}/logs`, as(alice));
      return r.body.logs?.length === 1 ? r.body.logs : null;
    });
    expect(logs[0]).toMatchObject({ status: 'success', response_code: 200 });
    const job = await server.http.get(`/api/jobs/${jobId}`, as(alice));
    expect(job.body.status).toBe('success');
    expect(job.body.last_run_at).not.toBeNull();
    const [usage] = await db.query(`SELECT executions FROM usage_periods WHERE account_id = $1`, [alice.userId]);
    expect(usage.executions).toBe(1);
  });

  it("answers 404 for another user's job and for a malformed id", async () => {
    const jobId = await createJob(alice, '/private');
    expect((await server.http.post(`/api/jobs/${jobId}/run`, undefined, as(bob))).status).toBe(404);
    expect((await server.http.post('/api/jobs/not-a-uuid/run', undefined, as(bob))).status).toBe(404);
    expect((await server.http.post(`/api/jobs/${jobId}/run`)).status).toBe(401);
    expect(target.requests('/private')).toHaveLength(0);
  });

  it('runs a job now through the public API with an API key', async () => {
    const jobId = await createJob(bob, '/prog-run');
    const key = (await server.http.post('/api/api-keys/generate', { name: 'run-key' }, as(bob))).body;
    const res = await server.http.post(`/prog/jobs/${jobId}/run`, undefined, { headers: { 'x-api-key': key.api_key, 'x-user-id': bob.userId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ trigger: 'manual', status: 'success' });
    expect(target.requests('/prog-run')).toHaveLength(1);
  });

  it('refuses a manual run when the quota is used up', async () => {
    const jobId = await createJob(bob, '/over');
    await db.query(`UPDATE usage_periods SET executions = 100 WHERE account_id = $1`, [bob.userId]);
    const res = await server.http.post(`/api/jobs/${jobId}/run`, undefined, as(bob));
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatchObject({ error: 'Execution quota exceeded', plan: 'free', execution_quota: 100 });
    expect(target.requests('/over')).toHaveLength(0);
  });

  it('pausing through the API withdraws a run already claimed ahead of its due instant and gives back its quota', async () => {
    const jobId = await createJob(alice, '/withdrawn');
    await db.query(`UPDATE jobs SET next_run_at = now() + interval '1500 milliseconds' WHERE id = $1`, [jobId]);
    await eventually(async () => {
      const runs = await db.runs(jobId);
      return runs[0]?.state === 'running' ? runs : null;
    });
    const usage = async () => (await db.query(`SELECT coalesce(sum(executions), 0)::int AS n FROM usage_periods WHERE account_id = $1`, [alice.userId]))[0].n;
    const claimedUsage = await usage();
    expect((await server.http.post(`/api/jobs/${jobId}/pause`, undefined, as(alice))).status).toBe(200);
    await eventually(async () => (await db.runs(jobId)).length === 0, 5_000, 'claim undone');
    expect(await usage()).toBe(claimedUsage - 1);
    await schedulerPassed(db, `${target.url}/sentinel`, 1_500); // due after the withdrawn run's instant
    expect(target.requests('/withdrawn')).toHaveLength(0);
    expect(await db.runs(jobId)).toHaveLength(0);
  });

  it('executes a test request without storing anything, validates it, and rate-limits it', async () => {
    target.on('/probe', (_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain' });
      res.end('teapot');
    });
    const before = await db.query(`SELECT count(*)::int AS n FROM job_runs`);
    const res = await server.http.post('/api/jobs/test', { url: `${target.url}/probe`, method: 'GET', headers: {}, body: '' }, as(alice));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', response_code: 418, response_body: 'teapot', error_message: 'HTTP 418: the target did not answer with a 2xx status' });
    expect(res.body.duration_ms).toBeGreaterThanOrEqual(0);
    const after = await db.query(`SELECT count(*)::int AS n FROM job_runs`);
    expect(after[0].n).toBe(before[0].n);

    const invalid = await server.http.post('/api/jobs/test', { url: 'ftp://x', method: 'GET' }, as(alice));
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0].loc).toEqual(['body', 'url']);

    let limited = null;
    for (let i = 0; i < 10 && !limited; i++) {
      const r = await server.http.post('/api/jobs/test', { url: `${target.url}/probe` }, as(alice));
      if (r.status === 429) limited = r;
    }
    expect(limited?.status).toBe(429);
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('exposes execution metrics at /metrics', async () => {
    const res = await server.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toMatch(/^cronbeam_executions_total\{outcome="success",trigger="manual"\} [1-9]/m);
    expect(res.text).toMatch(/^cronbeam_dispatch_lateness_seconds_bucket\{le="0\.1"\} \d+/m);
    expect(res.text).toMatch(/^cronbeam_executions_in_flight 0$/m);
    expect(res.text).toMatch(/^cronbeam_dispatch_queue_depth \d+$/m);
  });
});
