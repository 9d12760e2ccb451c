import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

/** Response rules, the per-job timeout and auto-pause, through "run now" (the same executor and result path as scheduled runs). */
describe('response rules, job timeout and auto-pause', () => {
  let server: TestServer;
  let target: HttpTarget;
  let alice: SignedInAccount;
  const as = () => ({ token: alice.accessToken });

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, ALLOW_PRIVATE_TARGETS: 'true', EXECUTION_TIMEOUT_MS: '10000' });
    alice = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
    target.on('/status', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'degraded', checks: [{ ok: true }], build: 42 }));
    });
    target.on('/gone', (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    });
    target.on('/slow', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200);
        res.end('late');
      }, 2500);
    });
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  const runWith = async (path: string, extra: Record<string, unknown>) => {
    const job = await server.http.post('/api/jobs', jobDefinition({ url: `${target.url}${path}`, ...extra }), as());
    expect(job.status).toBe(200);
    const run = await server.http.post(`/api/jobs/${job.body.job_id}/run`, undefined, as());
    expect(run.status).toBe(200);
    return { job: job.body, run: run.body };
  };

  it('stores the rules with defaults filled in and answers them', async () => {
    const { job } = await runWith('/status', { response_rules: { body_contains: 'status' } });
    expect(job.response_rules).toEqual({ expected_status: '200-299', body_contains: 'status', json_path: null, json_equals: null });
    expect(job.timeout_seconds).toBeNull();
    expect(job.auto_pause_after).toBeNull();
  });

  it.each([
    ['a 404 that is expected succeeds', '/gone', { expected_status: '200-299, 404' }, 'success', null],
    ['a 200 outside the expected codes fails, naming the rule', '/status', { expected_status: '204' }, 'failed', 'Response rule failed: status 200 is not one of the expected 204'],
    ['body text present succeeds', '/status', { body_contains: '"build":42' }, 'success', null],
    ['body text missing fails, naming it', '/status', { body_contains: 'healthy' }, 'failed', 'Response rule failed: body does not contain "healthy"'],
    ['JSON path equal succeeds', '/status', { json_path: '$.checks[0].ok', json_equals: true }, 'success', null],
    ['JSON path different fails with both values', '/status', { json_path: '$.status', json_equals: 'ok' }, 'failed', 'Response rule failed: $.status is "degraded", expected "ok"'],
    ['JSON path missing fails', '/status', { json_path: 'uptime', json_equals: 1 }, 'failed', 'Response rule failed: uptime is not in the response'],
    ['JSON rule on a text body fails', '/gone', { expected_status: '404', json_path: '$.a', json_equals: 1 }, 'failed', 'Response rule failed: $.a cannot be read: the body is not JSON'],
  ])('%s', async (_title, path, rules, status, error) => {
    const { run } = await runWith(path, { response_rules: rules });
    expect({ status: run.status, error: run.error_message }).toEqual({ status, error });
  });

  it('without rules a 404 still fails as before', async () => {
    const { run } = await runWith('/gone', {});
    expect(run.status).toBe('failed');
    expect(run.error_message).not.toContain('Response rule');
  });

  it('times a request out after the job’s own timeout', async () => {
    const { run } = await runWith('/slow', { timeout_seconds: 1 });
    expect(run.status).toBe('failed');
    expect(run.error_message).toMatch(/tim/i);
    expect(run.duration_ms).toBeGreaterThanOrEqual(900);
    expect(run.duration_ms).toBeLessThan(2400);
  });

  it.each([
    [{ response_rules: { expected_status: '99' } }, ['body', 'response_rules', 'expected_status']],
    [{ response_rules: { expected_status: '300-200' } }, ['body', 'response_rules', 'expected_status']],
    [{ response_rules: { json_path: '$.a' } }, ['body', 'response_rules', 'json_path']],
    [{ response_rules: { json_path: '$..a', json_equals: 1 } }, ['body', 'response_rules', 'json_path']],
    [{ response_rules: { json_equals: { a: 1 } } }, ['body', 'response_rules', 'json_equals']],
    [{ response_rules: { surprise: 1 } }, ['body', 'response_rules']],
    [{ response_rules: 'strict' }, ['body', 'response_rules']],
    [{ timeout_seconds: 0 }, ['body', 'timeout_seconds']],
    [{ timeout_seconds: 1.5 }, ['body', 'timeout_seconds']],
    [{ timeout_seconds: 11 }, ['body', 'timeout_seconds']],
    [{ auto_pause_after: 0 }, ['body', 'auto_pause_after']],
  ])('refuses %j with a 422 naming the field', async (fields, loc) => {
    const res = await server.http.post('/api/jobs', jobDefinition(fields), as());
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
  });

  it('names the server’s maximum when the timeout exceeds it', async () => {
    const res = await server.http.post('/api/jobs', jobDefinition({ timeout_seconds: 11 }), as());
    expect(res.body.detail[0].msg).toBe('timeout_seconds: this server allows requests of at most 10 seconds (the pro plan would allow 1800); 11 asked');
  });

  it('pauses a job after its N-th failed run in a row, says so by email, and a success resets the count', async () => {
    let healthy = false;
    target.on('/flaky', (_req, res) => {
      res.writeHead(healthy ? 200 : 500);
      res.end(healthy ? 'ok' : 'boom');
    });
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'flaky-job', url: `${target.url}/flaky`, auto_pause_after: 2 }), as())).body;
    const run = () => server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as());
    const get = async () => (await server.http.get(`/api/jobs/${job.job_id}`, as())).body;

    await run();
    healthy = true;
    await run(); // success resets the count
    healthy = false;
    await run();
    expect((await get()).status).toBe('failed');
    await run();
    const paused = await get();
    expect(paused).toMatchObject({ status: 'paused', next_run_at: null, auto_pause_after: 2 });
    // The alert goes out after the result is stored: poll the dev outbox (no SMTP in this test server).
    const subject = 'Cronbeam: job "flaky-job" paused after 2 failed runs';
    const deadline = Date.now() + 20_000;
    let mails: Array<{ to: string; subject: string }> = [];
    while (Date.now() < deadline && !mails.some((m) => m.subject === subject)) {
      mails = (await server.http.get('/api/dev/outbox')).body;
      if (!mails.some((m) => m.subject === subject)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(mails.filter((m) => m.subject === subject).map((m) => m.to)).toEqual([alice.email]);

    // Resuming starts it again; one more failure does not pause it at once (the count starts over only after a success).
    const resumed = await server.http.post(`/api/jobs/${job.job_id}/resume`, undefined, as());
    expect(resumed.body.status).toBe('scheduled');
  });
});
