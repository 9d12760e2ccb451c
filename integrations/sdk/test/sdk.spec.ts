import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HttpTarget } from '../../../test/fakes/http-target';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { ADMIN_TOKEN, apiUser, type ApiUser } from '../../mcp-server/test/support/cronbeam-fixture';
import { createCronbeamClient, CronbeamApiError, CronbeamConnectionError, unwrap, type CronbeamClient, type JobDefinition } from '../src';

/** The SDK against a real running Cronbeam (its /prog API), plus a stand-in server for 503s. */
const packageDir = join(__dirname, '..');
/** Calls per key per second: low enough that a burst of calls meets 429s. */
const RATE_LIMIT = 15;

const jobDefinition = (name: string, url: string): JobDefinition => ({ name, url, method: 'POST', cron_expression: '0 3 * * *', body: '{"full":true}', headers: { 'Content-Type': 'application/json' } });

/** A loopback port nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('@cronbeam/sdk', () => {
  let cronbeam: TestServer;
  let target: HttpTarget;
  let alice: ApiUser;
  let client: CronbeamClient;
  /** Statuses the API answered alice's client with, retried ones included. */
  const statuses: number[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };

  beforeAll(async () => {
    target = await HttpTarget.start();
    cronbeam = await startTestServer({ ALLOW_PRIVATE_TARGETS: 'true', ADMIN_TOKEN, PROG_RATE_LIMIT: String(RATE_LIMIT), PROG_RATE_LIMIT_WINDOW_SECONDS: '1' });
    alice = await apiUser(cronbeam, 'pro');
    client = createCronbeamClient({ baseUrl: cronbeam.baseUrl, apiKey: alice.apiKey, userId: alice.account.userId, fetch: recordingFetch });
  });

  afterAll(async () => {
    await cronbeam?.close();
    await target?.close();
  });

  it('its generated types are those of the /prog document the server serves now', async () => {
    // A child process: openapi-typescript loads ES modules that jest's module system cannot. Run without
    // blocking: the server lives in this process, and a blocked event loop lets its keep-alive sockets
    // time out under the client's next request (ECONNRESET in the test after this one).
    await expect(promisify(execFile)('npm', ['run', 'generate', '--', '--check'], { cwd: packageDir })).resolves.toBeDefined();
  });

  it('creates, reads, replaces with its own representation, runs, lists and deletes a job', async () => {
    target.on('/hook', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const created = await unwrap(client.POST('/prog/jobs', { body: { ...jobDefinition('sdk-backup', `${target.url}/hook`), response_rules: { body_contains: 'ok' } } }));
    expect(created).toMatchObject({ name: 'sdk-backup', method: 'POST', cron_expression: '0 3 * * *', response_rules: { body_contains: 'ok' } });
    const path = { job_id: created.job_id };
    const fetched = await unwrap(client.GET('/prog/jobs/{job_id}', { params: { path } }));
    // The request-signing secret is shown once, in the creation answer only.
    const { signing_secret: signingSecret, ...createdWithoutSecret } = created;
    expect(signingSecret).toMatch(/^cbsig_/);
    expect(fetched).not.toHaveProperty('signing_secret');
    expect(fetched).toEqual(createdWithoutSecret);
    // What the API returns is accepted back unchanged.
    const { name, url, method, headers, body, cron_expression, time_zone, response_rules, timeout_seconds, auto_pause_after, delivery, notify_on_failure } = fetched;
    const replaced = await unwrap(
      client.PUT('/prog/jobs/{job_id}', { params: { path }, body: { name, url, method, headers, body, cron_expression, time_zone, response_rules, timeout_seconds, auto_pause_after, delivery, notify_on_failure } }),
    );
    expect(replaced.response_rules).toEqual(fetched.response_rules);
    const run = await unwrap(client.POST('/prog/jobs/{job_id}/run', { params: { path } }));
    expect(run).toMatchObject({ status: 'success', response_code: 200 });
    const { logs } = await unwrap(client.GET('/prog/jobs/{job_id}/logs', { params: { path } }));
    expect(logs?.map((entry) => entry.status)).toEqual(['success']);
    expect((await unwrap(client.GET('/prog/jobs'))).map((job) => job.name)).toContain('sdk-backup');
    await unwrap(client.DELETE('/prog/jobs/{job_id}', { params: { path } }));
    await expect(client.GET('/prog/jobs/{job_id}', { params: { path } })).rejects.toMatchObject({ status: 404, detail: 'Job not found', method: 'GET', path: `/prog/jobs/${created.job_id}` });
  });

  it('throws typed errors carrying the API detail: field problems of a 422, the sentence of a 401', async () => {
    const invalid = client.POST('/prog/jobs', { body: { ...jobDefinition('sdk-invalid', 'https://example.com/x'), cron_expression: 'every day' } });
    const error = (await invalid.catch((e: unknown) => e)) as CronbeamApiError;
    expect(error).toBeInstanceOf(CronbeamApiError);
    expect(error.status).toBe(422);
    expect(error.issues[0]?.loc).toEqual(['body', 'cron_expression']);
    expect(error.message).toMatch(/^cron_expression: /);
    const stranger = createCronbeamClient({ baseUrl: cronbeam.baseUrl, apiKey: 'cb_not-a-real-key', userId: alice.account.userId });
    await expect(stranger.GET('/prog/jobs')).rejects.toMatchObject({ name: 'CronbeamApiError', status: 401, detail: 'Invalid API key' });
  });

  it('sends the key as a bearer token when no user id is given, and accepts a base URL ending in /prog', async () => {
    const bearer = createCronbeamClient({ baseUrl: `${cronbeam.baseUrl}/prog/`, apiKey: alice.apiKey });
    expect(Array.isArray(await unwrap(bearer.GET('/prog/jobs')))).toBe(true);
  });

  it('manages a monitor and pings it through the documented ping URLs', async () => {
    const monitor = await unwrap(client.POST('/prog/monitors', { body: { name: 'sdk-nightly', period_seconds: 3600 } }));
    const token = monitor.ping_url.split('/').pop() as string;
    await unwrap(client.POST('/ping/{token}/start', { params: { path: { token } } }));
    await unwrap(client.POST('/ping/{token}/fail', { params: { path: { token } } }));
    const { events } = await unwrap(client.GET('/prog/monitors/{monitor_id}/events', { params: { path: { monitor_id: monitor.monitor_id } } }));
    expect(events.map((event) => event.kind)).toEqual(['fail', 'start']);
    await expect(client.POST('/ping/{token}', { params: { path: { token: 'unknown-token-123' } } })).rejects.toMatchObject({ status: 404 });
  });

  it('waits out 429s as Retry-After says: a burst beyond the rate limit all succeeds', async () => {
    statuses.length = 0;
    const burst = await Promise.all(Array.from({ length: RATE_LIMIT * 2 }, () => unwrap(client.GET('/prog/jobs'))));
    expect(burst).toHaveLength(RATE_LIMIT * 2);
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT * 2);
  });

  it('with retries off, a 429 throws with the wait the API asked for', async () => {
    const impatient = createCronbeamClient({ baseUrl: cronbeam.baseUrl, apiKey: alice.apiKey, userId: alice.account.userId, retry: { maxRetries: 0 } });
    const outcomes = await Promise.allSettled(Array.from({ length: RATE_LIMIT * 2 }, () => impatient.GET('/prog/jobs')));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as CronbeamApiError] : []));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatchObject({ status: 429, detail: expect.stringContaining('Rate limit') });
    expect(refused[0]?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('retries a 503 after its Retry-After (seconds or a date), and gives up when the wait is beyond maxDelayMs', async () => {
    let calls = 0;
    target.on('/prog/jobs', (_req, res) => {
      calls += 1;
      if (calls === 1) res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"detail":"Maintenance"}');
      else if (calls === 2) res.writeHead(503, { 'retry-after': new Date(Date.now() + 1000).toUTCString() }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const viaStandIn = createCronbeamClient({ baseUrl: target.url, apiKey: 'key', userId: 'user' });
    const started = Date.now();
    expect(await unwrap(viaStandIn.GET('/prog/jobs'))).toEqual([]);
    expect(calls).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    target.on('/prog/jobs', (_req, res) => res.writeHead(503, { 'retry-after': '120', 'content-type': 'application/json' }).end('{"detail":"Maintenance"}'));
    await expect(viaStandIn.GET('/prog/jobs')).rejects.toMatchObject({ status: 503, detail: 'Maintenance', retryAfterSeconds: 120 });
  });

  it('names the URL it could not reach', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = createCronbeamClient({ baseUrl: url, apiKey: 'key', userId: 'user' });
    const error = await unreachable.GET('/prog/jobs').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CronbeamConnectionError);
    expect((error as Error).message).toBe(`Cannot reach Cronbeam at ${url} (ECONNREFUSED)`);
  });

  it('packs into a tarball that installs in an empty folder and calls the API', async () => {
    // Child processes run asynchronously: the server they call lives in this process.
    const run = promisify(execFile);
    const work = mkdtempSync(join(tmpdir(), 'cronbeam-sdk-pack-'));
    try {
      await run('npm', ['run', 'build'], { cwd: packageDir });
      const tarball = (await run('npm', ['pack', '--pack-destination', work], { cwd: packageDir })).stdout.trim().split('\n').pop() as string;
      const project = join(work, 'project');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), '{"name":"sdk-consumer","private":true}');
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball)], { cwd: project });
      const script = `const { createCronbeamClient, unwrap } = require('@cronbeam/sdk');
        const client = createCronbeamClient({ baseUrl: process.argv[1], apiKey: process.argv[2], userId: process.argv[3] });
        unwrap(client.GET('/prog/jobs')).then((jobs) => console.log(JSON.stringify(jobs.map((job) => job.name))));`;
      const { stdout } = await run(process.execPath, ['-e', script, cronbeam.baseUrl, alice.apiKey, alice.account.userId], { cwd: project });
      expect(JSON.parse(stdout)).toEqual([]);
      // The transport-free core is its own entry (the n8n node's part of the SDK).
      const core = `const { progPath } = require('@cronbeam/sdk/core'); console.log(progPath('/prog/jobs/{job_id}/logs', { job_id: 'a/b' }));`;
      expect((await run(process.execPath, ['-e', core], { cwd: project })).stdout.trim()).toBe('/prog/jobs/a%2Fb/logs');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
