import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { CALLBACK_BODY_MAX_CHARS, CALLBACK_MESSAGES } from '@cronbeam/shared/jobs/run-callbacks';
import { HttpTarget, type ReceivedRequest } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startProductionServerWithUser } from '../support/production-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures } from './scheduler-fixtures';

jest.setTimeout(90_000);

const EXAMPLES = path.join(__dirname, '../../docs/examples');

type Outcome = Record<string, unknown> | null;

/**
 * Run callbacks: each completed run of a job with a callback_url is POSTed
 * there once (a run retried by its policy gives one callback, from its last
 * attempt), signed like alert webhooks and verified here with the published
 * snippet; a callback target that fails is retried from the durable delivery
 * queue, every attempt in the job's callback delivery log; callback URLs pass
 * the jobs' target policy.
 */
describe('run callbacks', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  const as = (account: SignedInAccount) => ({ token: account.accessToken });

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, ADMIN_TOKEN: TEST_ADMIN_TOKEN, EXECUTION_TIMEOUT_MS: '5000' });
    db = await SchedulerFixtures.connect(server.database.url);
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  const answer = (status: number, body = `status ${status}`) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(body);
  };

  /** Answers `statuses` in turn, then 200 for good. */
  const answers = (...statuses: number[]) => {
    let n = 0;
    return (req: unknown, res: ServerResponse) => answer(statuses[n++] ?? 200)(req, res);
  };

  /** Creates the job through the API (a yearly schedule), then makes it due in 200 ms, once. */
  const fireOnce = async (extra: Record<string, unknown>): Promise<{ job_id: string; signing_secret: string }> => {
    const created = await server.http.post('/api/jobs', jobDefinition({ cron_expression: '0 0 1 1 *', ...extra }), as(alice));
    expect(created.status).toBe(200);
    await db.query(`UPDATE jobs SET next_run_at = now() + interval '200 milliseconds' WHERE id = $1`, [created.body.job_id]);
    return created.body;
  };

  /** What the published snippet makes of a received callback (run as a child process: the server shares this event loop). */
  const verify = (request: Pick<ReceivedRequest, 'headers' | 'body'>, secret: string, jobId: string) =>
    new Promise<Outcome>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(EXAMPLES, 'verify-callback.mjs')], { timeout: 20_000 });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve((JSON.parse(out) as { outcome: Outcome }).outcome) : reject(new Error(`verify-callback.mjs failed: ${err}`))));
      child.stdin.end(JSON.stringify({ headers: request.headers, body: request.body, secret, job_id: jobId }));
    });

  const deliveries = async (jobId: string) => {
    const res = await server.http.get(`/api/jobs/${jobId}/callback-deliveries`, as(alice));
    expect(res.status).toBe(200);
    return res.body.deliveries as Array<{ run_id: string; attempt: number; status: string; response_code: number | null; error: string | null }>;
  };

  const queued = async (jobId: string) => (await sql<{ n: number }>(server, `SELECT count(*)::int AS n FROM alert_queue WHERE job_id = $1`, [jobId]))[0]!.n;

  it('posts one signed callback per completed run, which the published snippet verifies', async () => {
    const long = 'x'.repeat(CALLBACK_BODY_MAX_CHARS + 100);
    target.on('/work-ok', answer(200, long));
    const job = await fireOnce({ url: `${target.url}/work-ok`, callback_url: `${target.url}/cb-ok?token=1` });
    await target.waitFor(() => target.requests('/cb-ok').length === 1);
    const [callback] = target.requests('/cb-ok');
    const [run] = await db.runs(job.job_id);

    expect(callback!.method).toBe('POST');
    expect(callback!.headers['content-type']).toBe('application/json');
    expect(callback!.headers['x-cronbeam-event']).toBe('run.completed');
    expect(callback!.headers['x-cronbeam-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const outcome = await verify(callback!, job.signing_secret, job.job_id);
    expect(outcome).toEqual({
      event: 'run.completed',
      job_id: job.job_id,
      run_id: run!.id,
      trigger: 'schedule',
      scheduled_for: expect.any(String),
      executed_at: expect.any(String),
      status: 'success',
      response_code: 200,
      duration_ms: expect.any(Number),
      attempt: 1,
      error_message: null,
      response_body: long.slice(0, CALLBACK_BODY_MAX_CHARS),
      response_body_truncated: true,
    });
    // Changed on the way, or checked with another secret or for another job: refused.
    expect(await verify({ ...callback!, body: callback!.body.replace('"success"', '"failed"') }, job.signing_secret, job.job_id)).toBeNull();
    expect(await verify(callback!, `${job.signing_secret}x`, job.job_id)).toBeNull();
    expect(await verify(callback!, job.signing_secret, '00000000-0000-4000-8000-000000000000')).toBeNull();

    await eventually(async () => (await deliveries(job.job_id)).length === 1 && (await queued(job.job_id)) === 0, 10_000, 'the delivery logged and dequeued');
    expect(await deliveries(job.job_id)).toEqual([expect.objectContaining({ run_id: run!.id, attempt: 1, status: 'delivered', response_code: 200, error: null })]);
    expect(target.requests('/cb-ok')).toHaveLength(1);
  });

  it('sends one callback for a run retried by its policy: the last attempt, not one per attempt', async () => {
    target.on('/work-flaky', answers(503, 503));
    const job = await fireOnce({ url: `${target.url}/work-flaky`, callback_url: `${target.url}/cb-flaky`, retry: { attempts: 3, initial_backoff_seconds: 1 } });
    await target.waitFor(() => target.requests('/cb-flaky').length === 1, 20_000);
    expect(target.requests('/work-flaky')).toHaveLength(3);
    const body = JSON.parse(target.requests('/cb-flaky')[0]!.body);
    expect(body).toMatchObject({ status: 'success', attempt: 3, response_code: 200 });
    const runs = await db.runs(job.job_id);
    expect(runs).toHaveLength(3);
    expect(body.run_id).toBe(runs.find((r) => r.attempt === 3)!.id);
    // The two failed attempts were stored before the last one and queued nothing: the log holds this one delivery, the queue nothing.
    await eventually(async () => (await queued(job.job_id)) === 0 && (await deliveries(job.job_id)).length === 1, 10_000, 'the callback dequeued');
    expect(target.requests('/cb-flaky')).toHaveLength(1);

    // A run that fails for good gives its callback too, with its last attempt's failure.
    target.on('/work-down', answer(500));
    const down = await fireOnce({ url: `${target.url}/work-down`, callback_url: `${target.url}/cb-down`, retry: { attempts: 1, initial_backoff_seconds: 1 } });
    await target.waitFor(() => target.requests('/cb-down').length === 1, 20_000);
    expect(target.requests('/work-down')).toHaveLength(2);
    expect(JSON.parse(target.requests('/cb-down')[0]!.body)).toMatchObject({ job_id: down.job_id, status: 'failed', attempt: 2, response_code: 500, response_body: 'status 500', response_body_truncated: false });
  });

  it('retries a failing callback target from the delivery queue, logging every attempt', async () => {
    target.on('/cb-503', answers(503, 502));
    const job = await fireOnce({ url: `${target.url}/work-plain`, callback_url: `${target.url}/cb-503` });
    await target.waitFor(() => target.requests('/cb-503').length === 3, 20_000);
    const [run] = await db.runs(job.job_id);
    // The same callback each time: the run's id, signed anew.
    const bodies = target.requests('/cb-503').map((r) => JSON.parse(r.body) as { run_id: string });
    expect(bodies.map((b) => b.run_id)).toEqual([run!.id, run!.id, run!.id]);
    for (const request of target.requests('/cb-503')) expect(await verify(request, job.signing_secret, job.job_id)).toMatchObject({ run_id: run!.id });
    await eventually(async () => (await deliveries(job.job_id)).length === 3 && (await queued(job.job_id)) === 0, 10_000, 'three attempts logged');
    expect((await deliveries(job.job_id)).map((d) => [d.attempt, d.status, d.response_code])).toEqual([
      [3, 'delivered', 200],
      [2, 'failed', 502],
      [1, 'failed', 503],
    ]);

    // The same log on /prog, by API key; another account's job is not found there either.
    const key = await server.http.post('/api/api-keys/generate', { name: 'callbacks' }, as(alice));
    const byKey = { headers: { 'X-API-Key': key.body.api_key as string, 'X-User-ID': alice.userId } };
    const prog = await server.http.get(`/prog/jobs/${job.job_id}/callback-deliveries`, byKey);
    expect(prog.status).toBe(200);
    expect(prog.body.deliveries).toEqual((await server.http.get(`/api/jobs/${job.job_id}/callback-deliveries`, as(alice))).body.deliveries);
    // The log is the owner's: another account's key to it is refused like the job itself.
    expect((await server.http.get(`/api/jobs/${job.job_id}/callback-deliveries`, as(bob))).status).toBe(404);
    const bobKey = await server.http.post('/api/api-keys/generate', { name: 'bob' }, as(bob));
    expect((await server.http.get(`/prog/jobs/${job.job_id}/callback-deliveries`, { headers: { 'X-API-Key': bobKey.body.api_key as string, 'X-User-ID': bob.userId } })).status).toBe(404);
  });

  it('answers callback_url with the job, gives it back unchanged, and refuses what is not an http(s) URL', async () => {
    const created = await server.http.post('/api/jobs', jobDefinition({ callback_url: 'https://hooks.example.com/cronbeam' }), as(alice));
    expect(created.status).toBe(200);
    expect(created.body.callback_url).toBe('https://hooks.example.com/cronbeam');
    expect((await server.http.post('/api/jobs', jobDefinition(), as(alice))).body.callback_url).toBeNull();
    const read = await server.http.get(`/api/jobs/${created.body.job_id}`, as(alice));
    const put = await server.http.put(`/api/jobs/${created.body.job_id}`, { ...read.body, callback_url: null }, as(alice));
    expect(put.status).toBe(200);
    expect(put.body.callback_url).toBeNull();

    for (const bad of ['ftp://hooks.example.com/', 'not a url', 42, '']) {
      const res = await server.http.post('/api/jobs', jobDefinition({ callback_url: bad }), as(alice));
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'callback_url'], msg: CALLBACK_MESSAGES.url })]);
    }
  });
});

describe('run callbacks: target policy in production', () => {
  let server: TestServer;
  let user: SignedInAccount;

  beforeAll(async () => {
    ({ server, user } = await startProductionServerWithUser({ PUBLIC_URL: 'https://cronbeam.example' }));
    await sql(server, `UPDATE accounts SET plan = 'pro' WHERE id = $1`, [user.userId]); // so that only the callback can refuse a job
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(['http://10.0.0.5/hook', 'http://169.254.169.254/latest/meta-data', 'http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://localhost/hook'])('refuses a callback to %s with a 422 on callback_url, on create and update', async (callbackUrl) => {
    const created = await server.http.post('/api/jobs', jobDefinition({ callback_url: callbackUrl }), { token: user.accessToken });
    expect(created.status).toBe(422);
    expect(created.body.detail).toEqual([{ loc: ['body', 'callback_url'], msg: CALLBACK_MESSAGES.privateTarget, type: 'value_error' }]);

    const job = await server.http.post('/api/jobs', jobDefinition({ name: `job-${Math.random().toString(36).slice(2, 10)}` }), { token: user.accessToken });
    expect(job.status).toBe(200);
    const updated = await server.http.put(`/api/jobs/${job.body.job_id}`, { ...job.body, callback_url: callbackUrl }, { token: user.accessToken });
    expect(updated.status).toBe(422);
    expect(updated.body.detail).toEqual([{ loc: ['body', 'callback_url'], msg: CALLBACK_MESSAGES.privateTarget, type: 'value_error' }]);
  });
});
