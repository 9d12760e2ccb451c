import { createServer } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { nextRun } from '@cronbeam/shared/cron';
import { JOB_MESSAGES } from '@cronbeam/shared/jobs/job-rules';
import type { Job, JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import { HttpTarget } from '../../../test/fakes/http-target';
import { RESPONSE_RULE_SHAPES } from '../../../test/support/job-shapes';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { ADMIN_TOKEN, apiUser, progAs, type ApiUser } from './support/cronbeam-fixture';
import { BuiltServer, callTool, connectStdio, HttpServerProcess, resultText, type McpConnection, type TransportKind } from './support/mcp-harness';

/**
 * The MCP server against a real running Cronbeam: the SDK's client drives the
 * built bin over stdio and over Streamable HTTP; jobs call a local target.
 */
/** Above what the file's calls with one key add up to in a minute (the last test spends the rest). */
const RATE_LIMIT = 300;

type Structured<T> = T & Record<string, unknown>;
const data = <T>(result: { structuredContent?: unknown }) => result.structuredContent as Structured<T>;
const textOf = (content: { uri: string } & ({ text: string } | { blob: string })) => ('text' in content ? content.text : '');
/** The JSON block a tool error carries after its message. */
const errorOf = (result: { content?: unknown }) => JSON.parse(resultText(result as never).split('\n\n').slice(1).join('\n\n')).error;

/** A loopback port nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('MCP server against a running Cronbeam', () => {
  let cronbeam: TestServer;
  let target: HttpTarget;
  let bin: BuiltServer;
  let alice: ApiUser;
  let bob: ApiUser;
  let httpServer: HttpServerProcess;
  const connections: McpConnection[] = [];
  const clients = {} as Record<TransportKind, Client>;
  let bobClient: Client;

  const open = async (env: Record<string, string>) => {
    const connection = await connectStdio(bin, env);
    connections.push(connection);
    return connection.client;
  };

  beforeAll(async () => {
    bin = BuiltServer.build();
    target = await HttpTarget.start();
    target.on('/broken', (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('database unavailable');
    });
    cronbeam = await startTestServer({ ALLOW_PRIVATE_TARGETS: 'true', ADMIN_TOKEN, PROG_RATE_LIMIT: String(RATE_LIMIT), EXECUTION_TIMEOUT_MS: '5000' });
    [alice, bob] = await Promise.all([apiUser(cronbeam, 'pro'), apiUser(cronbeam, 'free')]);
    clients.stdio = await open(alice.env);
    httpServer = await HttpServerProcess.start(bin, alice.env);
    const http = await httpServer.connect();
    connections.push(http);
    clients.http = http.client;
    bobClient = await open(bob.env);
  });

  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
    await httpServer?.stop();
    await cronbeam?.close();
    await target?.close();
    bin?.remove();
  });

  describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
    const client = () => clients[transport];
    const name = (base: string) => `${transport}-${base}`;

    it('check_connection confirms the URL and the key', async () => {
      const result = await callTool(client(), 'check_connection');
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ url: cronbeam.baseUrl, reachable: true, authenticated: true, user_id_configured: true });
    });

    it('creates a job with the API defaults and next run, visible through the API', async () => {
      const result = await callTool(client(), 'create_job', { name: name('health'), url: `${target.url}/ok`, cron_expression: '0 9 * * 1-5', notify_on_failure: true });
      expect(result.isError).toBeFalsy();
      const job = data<Job>(result);
      expect(job).toMatchObject({ name: name('health'), method: 'GET', headers: {}, body: '', status: 'pending', notify_on_failure: true, cron_expression: '0 9 * * 1-5' });
      expect(job.next_run_at).toBe(nextRun('0 9 * * 1-5')?.toISOString());
      expect(resultText(result)).toContain(`Created ${name('health')}`);
      const stored = await cronbeam.http.get(`/prog/jobs/${job.job_id}`, progAs(alice));
      // The creation alone answers the job's signing secret.
      const { signing_secret: secret, ...answered } = job;
      expect(secret).toMatch(/^cbsig_/);
      expect(stored.body).toEqual(answered);
    });

    it('normalizes like the API: method upper-cased, a JSON body sent as its text, cron whitespace collapsed', async () => {
      const result = await callTool(client(), 'create_job', {
        name: name('report'),
        url: `${target.url}/report`,
        method: 'post',
        headers: { 'Content-Type': 'application/json', ' X-Trace ': ' abc ' },
        body: { kind: 'daily' },
        cron_expression: '30  6 *  * MON',
      });
      expect(data<Job>(result)).toMatchObject({ method: 'POST', body: '{"kind":"daily"}', headers: { 'Content-Type': 'application/json', 'X-Trace': 'abc' }, cron_expression: '30 6 * * MON' });
    });

    it('gets a job by id and by name (ignoring case)', async () => {
      const byName = await callTool(client(), 'get_job', { job: name('HEALTH').replace(transport, transport.toUpperCase()) });
      expect(byName.isError).toBeFalsy();
      const job = data<Job>(byName);
      expect(job.name).toBe(name('health'));
      const byId = await callTool(client(), 'get_job', { job: job.job_id });
      expect(data<Job>(byId)).toEqual(job);
    });

    it('lists jobs, filtered by status and by name', async () => {
      const all = data<{ jobs: Job[]; count: number }>(await callTool(client(), 'list_jobs'));
      expect(all.jobs.map((j) => j.name)).toEqual(expect.arrayContaining([name('health'), name('report')]));
      expect(all.count).toBe(all.jobs.length);
      const filtered = data<{ jobs: Job[] }>(await callTool(client(), 'list_jobs', { name_contains: name('REP') }));
      expect(filtered.jobs.map((j) => j.name)).toEqual([name('report')]);
      const paused = data<{ jobs: Job[] }>(await callTool(client(), 'list_jobs', { status: 'paused' }));
      expect(paused.jobs.every((j) => j.status === 'paused')).toBe(true);
    });

    it('updates only the fields given, keeping the others, and recomputes the next run', async () => {
      const before = data<Job>(await callTool(client(), 'get_job', { job: name('report') }));
      const result = await callTool(client(), 'update_job', { job: name('report'), cron_expression: '15 7 * * *', notify_on_failure: true });
      expect(result.isError).toBeFalsy();
      const after = data<Job>(result);
      expect(after).toMatchObject({ job_id: before.job_id, method: 'POST', body: before.body, headers: before.headers, url: before.url, cron_expression: '15 7 * * *', notify_on_failure: true });
      expect(after.next_run_at).toBe(nextRun('15 7 * * *')?.toISOString());
    });

    it('creates a job in a time zone, and an update keeps the zone and the response rules it does not name', async () => {
      const created = await callTool(client(), 'create_job', { name: name('berlin'), url: 'https://example.com/berlin', cron_expression: '30 2 * * *', time_zone: 'Europe/Berlin' });
      expect(created.isError).toBeFalsy();
      const job = data<Job>(created);
      expect(job.time_zone).toBe('Europe/Berlin');
      expect(job.next_run_at).toBe(nextRun('30 2 * * *', new Date(), 'Europe/Berlin')?.toISOString());
      const bad = await callTool(client(), 'create_job', { name: name('mars'), url: 'https://example.com/', cron_expression: '0 * * * *', time_zone: 'Mars/Olympus' });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('Time zone must be an IANA time zone name');
      const renamed = data<Job>(await callTool(client(), 'update_job', { job: job.job_id, url: 'https://example.com/berlin-2' }));
      expect(renamed).toMatchObject({ url: 'https://example.com/berlin-2', time_zone: 'Europe/Berlin' });
      const moved = data<Job>(await callTool(client(), 'update_job', { job: job.job_id, time_zone: 'Asia/Tokyo' }));
      expect(moved.time_zone).toBe('Asia/Tokyo');
      await callTool(client(), 'delete_job', { job: job.job_id });
    });

    it('creates a job on an interval or at one instant, and an update to another form replaces the schedule', async () => {
      const created = await callTool(client(), 'create_job', { name: name('interval'), url: 'https://example.com/interval', every_seconds: 3_600, jitter_seconds: 60, overlap: 'skip', catch_up: 'all_within', catch_up_window_seconds: 600 });
      expect(created.isError).toBeFalsy();
      const job = data<Job>(created);
      expect(job).toMatchObject({ cron_expression: null, every_seconds: 3_600, jitter_seconds: 60, overlap: 'skip', catch_up: 'all_within', catch_up_window_seconds: 600 });
      const moved = data<Job>(await callTool(client(), 'update_job', { job: job.job_id, cron_expression: '0 4 * * *', catch_up: 'latest', catch_up_window_seconds: null }));
      expect(moved).toMatchObject({ cron_expression: '0 4 * * *', every_seconds: null, jitter_seconds: 60, overlap: 'skip' });
      const runAt = new Date(Date.now() + 86_400_000).toISOString();
      const once = data<Job>(await callTool(client(), 'update_job', { job: job.job_id, run_at: runAt, jitter_seconds: 0 }));
      expect(once).toMatchObject({ cron_expression: null, every_seconds: null, run_at: runAt, next_run_at: runAt });
      const bad = await callTool(client(), 'create_job', { name: name('two-forms'), url: 'https://example.com/', cron_expression: '0 * * * *', every_seconds: 3_600 });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('Give one schedule');
      await callTool(client(), 'delete_job', { job: job.job_id });
    });

    it('creates a job with response rules, a timeout and auto-pause, and an update replaces only what it names', async () => {
      const rules = { expected_status: '200-299, 304', body_contains: 'done', json_path: '$.state', json_equals: true };
      const created = await callTool(client(), 'create_job', { name: name('ruled'), url: 'https://example.com/ruled', cron_expression: '0 3 * * *', response_rules: rules, timeout_seconds: 4, auto_pause_after: 4 });
      expect(created.isError).toBeFalsy();
      const job = data<Job>(created);
      expect(job).toMatchObject({ response_rules: rules, timeout_seconds: 4, auto_pause_after: 4 });
      const retimed = data<Job>(await callTool(client(), 'update_job', { job: job.job_id, timeout_seconds: 2 }));
      expect(retimed).toMatchObject({ response_rules: rules, timeout_seconds: 2, auto_pause_after: 4 });
      const cleared = data<Job>(await callTool(client(), 'update_job', { job: job.job_id, response_rules: null, auto_pause_after: null }));
      expect(cleared).toMatchObject({ response_rules: null, timeout_seconds: 2, auto_pause_after: null });
      const bad = await callTool(client(), 'update_job', { job: job.job_id, response_rules: { expected_status: '700' } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('expected_status must list status codes');
      await callTool(client(), 'delete_job', { job: job.job_id });
    });

    it('renames a job', async () => {
      const result = await callTool(client(), 'update_job', { job: name('report'), name: name('daily-report') });
      expect(data<Job>(result).name).toBe(name('daily-report'));
      expect((await callTool(client(), 'get_job', { job: name('report') })).isError).toBe(true);
    });

    it('pauses and resumes a job', async () => {
      const paused = data<Job>(await callTool(client(), 'pause_job', { job: name('health') }));
      expect(paused).toMatchObject({ status: 'paused', next_run_at: null });
      const again = await callTool(client(), 'pause_job', { job: name('health') });
      expect(data<Job>(again).status).toBe('paused');
      const resumed = data<Job>(await callTool(client(), 'resume_job', { job: name('health') }));
      expect(resumed).toMatchObject({ status: 'scheduled', next_run_at: nextRun('0 9 * * 1-5')?.toISOString() });
    });

    it('runs a job now: the target gets the request and the outcome is returned and logged', async () => {
      const before = target.requests('/report').length;
      const result = await callTool(client(), 'run_job_now', { job: name('daily-report') });
      expect(result.isError).toBeFalsy();
      const { execution } = data<{ execution: JobLogEntry }>(result);
      expect(execution).toMatchObject({ trigger: 'manual', status: 'success', response_code: 200, error_message: null });
      expect(target.requests('/report')).toHaveLength(before + 1);
      expect(target.requests('/report').at(-1)!.body).toBe('{"kind":"daily"}');
      expect(resultText(result)).toContain('success (HTTP 200)');

      const logs = data<{ logs: JobLogEntry[]; count: number }>(await callTool(client(), 'get_job_logs', { job: name('daily-report') }));
      expect(logs.logs[0]).toMatchObject({ run_id: execution.run_id, status: 'success' });
    });

    it('reports a failed run with its error, and filters and limits logs', async () => {
      const created = data<Job>(await callTool(client(), 'create_job', { name: name('flaky'), url: `${target.url}/broken`, cron_expression: '0 0 1 1 *' }));
      const run = data<{ execution: JobLogEntry }>(await callTool(client(), 'run_job_now', { job: created.job_id }));
      expect(run.execution).toMatchObject({ status: 'failed', response_code: 500 });
      await callTool(client(), 'run_job_now', { job: created.job_id });
      const failed = data<{ logs: JobLogEntry[]; count: number }>(await callTool(client(), 'get_job_logs', { job: name('flaky'), status: 'failed', limit: 1 }));
      expect(failed.count).toBe(1);
      expect(failed.logs[0].status).toBe('failed');
      const none = data<{ count: number }>(await callTool(client(), 'get_job_logs', { job: name('flaky'), status: 'success' }));
      expect(none.count).toBe(0);
    });

    it("passes the API's 422 details through: a taken name", async () => {
      const result = await callTool(client(), 'create_job', { name: name('HEALTH'), url: 'https://example.com', cron_expression: '* * * * *' });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain(`name: ${JOB_MESSAGES.nameTaken}`);
      expect(errorOf(result)).toEqual({
        kind: 'validation',
        status: 422,
        message: expect.stringContaining('Cronbeam refused the request (422)'),
        detail: [{ loc: ['body', 'name'], msg: JOB_MESSAGES.nameTaken, type: expect.any(String) }],
      });
    });

    it('answers a clear not-found for an unknown id and an unknown name', async () => {
      const byId = await callTool(client(), 'get_job', { job: '00000000-0000-4000-8000-000000000000' });
      expect(byId.isError).toBe(true);
      expect(errorOf(byId)).toMatchObject({ kind: 'not_found', status: 404 });
      const byName = await callTool(client(), 'pause_job', { job: 'no-such-job' });
      expect(byName.isError).toBe(true);
      expect(resultText(byName)).toContain("No job with the id or name 'no-such-job'");
      expect(resultText(byName)).toContain(name('health'));
    });

    it('deletes a job and its logs', async () => {
      const job = data<Job>(await callTool(client(), 'get_job', { job: name('flaky') }));
      const result = await callTool(client(), 'delete_job', { job: name('flaky') });
      expect(result.structuredContent).toEqual({ deleted: true, job_id: job.job_id, name: name('flaky'), message: 'Job deleted' });
      expect((await cronbeam.http.get(`/prog/jobs/${job.job_id}`, progAs(alice))).status).toBe(404);
      expect(errorOf(await callTool(client(), 'delete_job', { job: job.job_id }))).toMatchObject({ kind: 'not_found' });
    });

    it('lists and reads jobs and their logs as resources', async () => {
      const job = data<Job>(await callTool(client(), 'get_job', { job: name('daily-report') }));
      const { resources } = await client().listResources();
      const uris = resources.map((r) => r.uri);
      expect(uris).toEqual(expect.arrayContaining(['cronbeam://jobs', `cronbeam://jobs/${job.job_id}`, `cronbeam://jobs/${job.job_id}/logs`]));
      const { resourceTemplates } = await client().listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['cronbeam://jobs/{job_id}', 'cronbeam://jobs/{job_id}/logs']);

      const read = await client().readResource({ uri: `cronbeam://jobs/${job.job_id}` });
      expect(read.contents[0]).toMatchObject({ uri: `cronbeam://jobs/${job.job_id}`, mimeType: 'application/json' });
      expect(JSON.parse(textOf(read.contents[0]))).toEqual((await cronbeam.http.get(`/prog/jobs/${job.job_id}`, progAs(alice))).body);

      const logs = JSON.parse(textOf((await client().readResource({ uri: `cronbeam://jobs/${job.job_id}/logs` })).contents[0]));
      expect(logs).toMatchObject({ job_id: job.job_id, name: name('daily-report') });
      expect(logs.logs).toEqual((await cronbeam.http.get(`/prog/jobs/${job.job_id}/logs`, progAs(alice))).body.logs);

      const all = JSON.parse(textOf((await client().readResource({ uri: 'cronbeam://jobs' })).contents[0]));
      expect(all.jobs.map((j: Job) => j.job_id)).toContain(job.job_id);
    });

    it('answers resource-not-found for an unknown job', async () => {
      await expect(client().readResource({ uri: 'cronbeam://jobs/00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ code: -32002 });
      await expect(client().readResource({ uri: 'cronbeam://jobs/nobody/logs' })).rejects.toMatchObject({ code: -32002 });
    });
  });

  describe('response rules of every shape', () => {
    // Each shape is created, kept through an update of another field, then replaced by the next shape (the last by the first):
    // every shape is also sent as an update, and the JSON rule is both added and removed. Few calls: the key's rate limit is shared by the file.
    it.each(RESPONSE_RULE_SHAPES.map(([shape, sent, answered], index) => [shape, index, sent, answered] as const))(
      'creates a job with %s, keeps them through an update of another field, then replaces them with the next shape',
      async (_shape, index, sent, answered) => {
        const client = clients.stdio;
        const created = await callTool(client, 'create_job', { name: `rule-shape-${index}`, url: 'https://example.com/rules', cron_expression: '0 4 * * *', response_rules: sent });
        expect(created.isError).toBeFalsy();
        const job = data<Job>(created);
        expect(job.response_rules).toEqual(answered);
        expect((await cronbeam.http.get(`/prog/jobs/${job.job_id}`, progAs(alice))).body.response_rules).toEqual(answered);

        const retimed = await callTool(client, 'update_job', { job: job.job_id, timeout_seconds: 3 });
        expect(retimed.isError).toBeFalsy();
        expect(data<Job>(retimed)).toMatchObject({ timeout_seconds: 3, response_rules: answered });

        const [, next, nextAnswered] = RESPONSE_RULE_SHAPES[(index + 1) % RESPONSE_RULE_SHAPES.length];
        const replaced = await callTool(client, 'update_job', { job: job.job_id, response_rules: next });
        expect(replaced.isError).toBeFalsy();
        expect(data<Job>(replaced)).toMatchObject({ timeout_seconds: 3, response_rules: nextAnswered });
        await callTool(client, 'delete_job', { job: job.job_id });
      },
    );
  });

  describe('failing jobs and usage', () => {
    it('find_failing_jobs reports jobs whose latest runs failed, with the last error, worst first', async () => {
      const client = clients.stdio;
      const once = data<Job>(await callTool(client, 'create_job', { name: 'fails-once', url: `${target.url}/broken`, cron_expression: '0 0 1 1 *' }));
      const healed = data<Job>(await callTool(client, 'create_job', { name: 'healed', url: `${target.url}/broken`, cron_expression: '0 0 1 1 *' }));
      await callTool(client, 'run_job_now', { job: once.job_id });
      await callTool(client, 'run_job_now', { job: healed.job_id });
      await callTool(client, 'update_job', { job: healed.job_id, url: `${target.url}/ok` });
      await callTool(client, 'run_job_now', { job: healed.job_id });

      const result = await callTool(client, 'find_failing_jobs');
      const { failing, jobs_checked } = data<{ failing: Array<Record<string, unknown>>; jobs_checked: number }>(result);
      const names = failing.map((f) => f.name);
      expect(names).toContain('fails-once');
      expect(names).not.toContain('healed');
      expect(names).not.toContain('stdio-daily-report');
      expect(failing.find((f) => f.name === 'fails-once')).toMatchObject({ consecutive_failures: 1, last_response_code: 500, status: 'failed', last_success_at: null });
      expect(jobs_checked).toBeGreaterThanOrEqual(3);
      // Ordered by failures in a row.
      const streaks = failing.map((f) => f.consecutive_failures as number);
      expect([...streaks].sort((a, b) => b - a)).toEqual(streaks);

      await callTool(client, 'run_job_now', { job: once.job_id });
      const strict = data<{ failing: Array<{ name: string; consecutive_failures: number }> }>(await callTool(client, 'find_failing_jobs', { min_consecutive_failures: 2 }));
      expect(strict.failing.map((f) => f.name)).toEqual(['fails-once']);
      expect(strict.failing[0].consecutive_failures).toBe(2);
    });

    it('estimate_executions counts each active job in a window and compares with the plan quotas', async () => {
      const carol = await apiUser(cronbeam, 'basic');
      const client = await open(carol.env);
      await callTool(client, 'create_job', { name: 'hourly', url: 'https://example.com/a', cron_expression: '0 * * * *' });
      await callTool(client, 'create_job', { name: 'half-hourly', url: 'https://example.com/b', cron_expression: '*/30 * * * *' });
      await callTool(client, 'create_job', { name: 'paused', url: 'https://example.com/c', cron_expression: '* * * * *' });
      await callTool(client, 'pause_job', { job: 'paused' });

      const result = await callTool(client, 'estimate_executions', { from: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z' });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        from: '2026-03-01T00:00:00.000Z',
        until: '2026-03-02T00:00:00.000Z',
        total: 72,
        plan_quotas: { free: 100, basic: 1500, pro: 10000 },
      });
      expect(data<{ jobs: Array<{ name: string; executions: number }> }>(result).jobs.map((j) => [j.name, j.executions])).toEqual([
        ['half-hourly', 48],
        ['hourly', 24],
      ]);

      const month = data<{ from: string; until: string }>(await callTool(client, 'estimate_executions'));
      expect(new Date(month.until).getUTCMonth()).toBe(new Date().getUTCMonth());
      const backwards = await callTool(client, 'estimate_executions', { from: '2026-03-02T00:00:00Z', until: '2026-03-01T00:00:00Z' });
      expect(backwards.isError).toBe(true);
      expect(resultText(backwards)).toBe('until must be after from.');
    });
  });

  describe('an assistant session driven by prompts', () => {
    it('pauses the matching jobs for maintenance and resumes exactly those', async () => {
      const client = clients.http;
      const erin = await apiUser(cronbeam, 'basic');
      const assistant = await open(erin.env);
      for (const job of ['billing-sync', 'billing-report', 'newsletter']) {
        await callTool(assistant, 'create_job', { name: job, url: `${target.url}/ok`, cron_expression: '0 6 * * *' });
      }
      await callTool(assistant, 'pause_job', { job: 'billing-report' });

      const pausePrompt = await assistant.getPrompt({ name: 'pause_for_maintenance', arguments: { name_contains: 'billing' } });
      expect(pausePrompt.messages[0].content.type === 'text' && pausePrompt.messages[0].content.text).toContain("list_jobs with name_contains 'billing'");
      // The steps the prompt asks for: list the matching jobs that are not paused, pause each.
      const listed = data<{ jobs: Job[] }>(await callTool(assistant, 'list_jobs', { name_contains: 'billing' }));
      const toPause = listed.jobs.filter((j) => j.status !== 'paused').map((j) => j.name);
      expect(toPause).toEqual(['billing-sync']);
      for (const job of toPause) expect(data<Job>(await callTool(assistant, 'pause_job', { job })).status).toBe('paused');

      const resumePrompt = await assistant.getPrompt({ name: 'resume_after_maintenance', arguments: { jobs: toPause.join(', ') } });
      expect(resumePrompt.messages[0].content.type === 'text' && resumePrompt.messages[0].content.text).toContain('exactly these jobs: billing-sync');
      for (const job of toPause) expect(data<Job>(await callTool(assistant, 'resume_job', { job })).status).toBe('scheduled');

      const after = (await cronbeam.http.get('/prog/jobs', progAs(erin))).body as Job[];
      expect(Object.fromEntries(after.map((j) => [j.name, j.status]))).toEqual({ 'billing-sync': 'scheduled', 'billing-report': 'paused', newsletter: 'pending' });
      // Alice's session over HTTP saw none of it.
      const alices = data<{ jobs: Job[] }>(await callTool(client, 'list_jobs', { name_contains: 'billing' }));
      expect(alices.jobs).toEqual([]);
    });
  });

  describe('errors an assistant can act on', () => {
    it("reports the plan's job limit with the API's detail", async () => {
      await callTool(bobClient, 'create_job', { name: 'one', url: 'https://example.com/1', cron_expression: '0 0 * * *' });
      await callTool(bobClient, 'create_job', { name: 'two', url: 'https://example.com/2', cron_expression: '0 0 * * *' });
      const third = await callTool(bobClient, 'create_job', { name: 'three', url: 'https://example.com/3', cron_expression: '0 0 * * *' });
      expect(third.isError).toBe(true);
      expect(resultText(third)).toContain('Job limit exceeded: the free plan allows 2 jobs and this account has 2');
      expect(errorOf(third)).toMatchObject({ kind: 'job_limit', status: 403, detail: { error: 'Job limit exceeded', plan: 'free', job_count: 2, max_jobs: 2 } });
    });

    /** Minimal valid arguments for every tool that calls the API. */
    const API_TOOL_ARGS: Array<[string, Record<string, unknown>]> = [
      ['list_jobs', {}],
      ['get_job', { job: 'stdio-health' }],
      ['create_job', { name: 'never-made', url: 'https://example.com', cron_expression: '0 0 * * *' }],
      ['update_job', { job: 'stdio-health', url: 'https://example.com/changed' }],
      ['delete_job', { job: 'stdio-health' }],
      ['pause_job', { job: 'stdio-health' }],
      ['resume_job', { job: 'stdio-health' }],
      ['run_job_now', { job: 'stdio-health' }],
      ['get_job_logs', { job: 'stdio-health' }],
      ['find_failing_jobs', {}],
      ['estimate_executions', {}],
      ['check_connection', {}],
    ];

    describe('for every tool that calls the API', () => {
      let down: string;
      let wrongKey: Client;
      let noKey: Client;
      let unreachable: Client;

      beforeAll(async () => {
        down = `http://127.0.0.1:${await closedPort()}`;
        [wrongKey, noKey, unreachable] = await Promise.all([
          open({ ...alice.env, CRONBEAM_API_KEY: 'cb_live_notarealkeynotarealkeynotarealkey' }),
          open({ CRONBEAM_URL: cronbeam.baseUrl }),
          open({ ...alice.env, CRONBEAM_URL: down }),
        ]);
      });

      it.each(API_TOOL_ARGS)('%s answers a wrong key, a missing key and a backend that is down with tool errors', async (tool, args) => {
        const refused = await callTool(wrongKey, tool, args);
        expect(refused.isError).toBe(true);
        expect(errorOf(refused)).toMatchObject({ kind: 'invalid_credentials', status: 401, detail: 'Invalid API key' });
        const missing = await callTool(noKey, tool, args);
        expect(missing.isError).toBe(true);
        expect(resultText(missing)).toContain('CRONBEAM_API_KEY is not set');
        const gone = await callTool(unreachable, tool, args);
        expect(gone.isError).toBe(true);
        expect(errorOf(gone)).toMatchObject({ kind: 'unreachable' });
        expect(resultText(gone)).toContain(`Cannot reach Cronbeam at ${down}`);
        // Nothing happened to the real job.
        const jobs = (await cronbeam.http.get('/prog/jobs', progAs(alice))).body as Job[];
        expect(jobs.find((j) => j.name === 'stdio-health')).toMatchObject({ status: 'scheduled', url: `${target.url}/ok` });
      });
    });

    it('reports a wrong API key as a tool error naming the variables to fix', async () => {
      const client = await open({ ...alice.env, CRONBEAM_API_KEY: 'cb_live_wrongwrongwrongwrongwrongwrongwrongwr' });
      const result = await callTool(client, 'list_jobs');
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain('Cronbeam rejected the API key (401 Invalid API key)');
      expect(resultText(result)).toContain('CRONBEAM_API_KEY');
      expect(errorOf(result)).toMatchObject({ kind: 'invalid_credentials', status: 401, detail: 'Invalid API key' });
      // Reachable but not authenticated: check_connection says which.
      const check = await callTool(client, 'check_connection');
      expect(errorOf(check)).toMatchObject({ kind: 'invalid_credentials' });
    });

    it('reports a CRONBEAM_URL that is not the Cronbeam API', async () => {
      // A web server without the API.
      target.on('/elsewhere/prog/jobs', (_req, res) => {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<html>Not Found</html>');
      });
      const elsewhere = await open({ ...alice.env, CRONBEAM_URL: `${target.url}/elsewhere` });
      const missing = await callTool(elsewhere, 'list_jobs');
      expect(errorOf(missing)).toMatchObject({ kind: 'configuration', status: 404 });
      expect(resultText(missing)).toContain(`${target.url}/elsewhere has no Cronbeam /prog API (404)`);
      // Cronbeam's own web app under a wrong path: a page, not the API. With the public site built
      // (as in CI) an unknown path is the site's 404 page; without it the web app's shell answers 200.
      const page = await open({ ...alice.env, CRONBEAM_URL: `${cronbeam.baseUrl}/elsewhere` });
      const html = await callTool(page, 'list_jobs');
      expect(errorOf(html)).toMatchObject({ kind: 'configuration' });
      expect(resultText(html)).toMatch(/elsewhere has no Cronbeam \/prog API \(404\)|answered, but not as the Cronbeam API does/);
      // Any other server answering JSON.
      const stranger = await open({ ...alice.env, CRONBEAM_URL: target.url });
      const odd = await callTool(stranger, 'list_jobs');
      expect(errorOf(odd)).toMatchObject({ kind: 'configuration' });
      expect(resultText(odd)).toContain('answered, but not as the Cronbeam API does');
    });

    it("refuses a key with another user's id", async () => {
      const client = await open({ ...alice.env, CRONBEAM_USER_ID: bob.account.userId });
      const result = await callTool(client, 'get_job', { job: 'stdio-health' });
      expect(errorOf(result)).toMatchObject({ kind: 'invalid_credentials', status: 401 });
    });

    it('reports a backend that is down as unreachable, naming the URL', async () => {
      const port = await closedPort();
      const client = await open({ ...alice.env, CRONBEAM_URL: `http://127.0.0.1:${port}` });
      const result = await callTool(client, 'run_job_now', { job: 'stdio-health' });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain(`Cannot reach Cronbeam at http://127.0.0.1:${port}`);
      expect(errorOf(result)).toMatchObject({ kind: 'unreachable' });
    });

    it('reports the rate limit with the time to wait', async () => {
      const dave = await apiUser(cronbeam, 'free');
      const client = await open(dave.env);
      for (let i = 0; i < RATE_LIMIT; i += 50) {
        await Promise.all(Array.from({ length: Math.min(50, RATE_LIMIT - i) }, () => cronbeam.http.get('/prog/jobs', progAs(dave))));
      }
      const result = await callTool(client, 'list_jobs');
      expect(result.isError).toBe(true);
      const error = errorOf(result);
      expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
      expect(error.retry_after_seconds).toBeGreaterThan(0);
      expect(resultText(result)).toContain(`Wait ${error.retry_after_seconds} seconds`);
    });
  });

  describe('tenant isolation', () => {
    let aliceJob: Job;

    beforeAll(async () => {
      aliceJob = data<Job>(await callTool(clients.stdio, 'get_job', { job: 'stdio-health' }));
    });

    it("never lists another user's jobs", async () => {
      const listed = data<{ jobs: Job[] }>(await callTool(bobClient, 'list_jobs'));
      expect(listed.jobs.map((j) => j.name).sort()).toEqual(['one', 'two']);
      const { resources } = await bobClient.listResources();
      expect(resources.map((r) => r.uri).some((uri) => uri.includes(aliceJob.job_id))).toBe(false);
    });

    it.each([
      ['get_job', {}],
      ['update_job', { url: 'https://attacker.example/' }],
      ['pause_job', {}],
      ['resume_job', {}],
      ['run_job_now', {}],
      ['get_job_logs', {}],
      ['delete_job', {}],
    ])("%s with another user's job id or name answers not found and changes nothing", async (tool, extra) => {
      for (const ref of [aliceJob.job_id, aliceJob.name]) {
        const result = await callTool(bobClient, tool, { job: ref, ...extra });
        expect(result.isError).toBe(true);
        expect(errorOf(result)).toMatchObject({ kind: 'not_found' });
      }
      const still = await cronbeam.http.get(`/prog/jobs/${aliceJob.job_id}`, progAs(alice));
      expect(still.status).toBe(200);
      expect(still.body).toMatchObject({ url: aliceJob.url, status: aliceJob.status, name: aliceJob.name });
    });

    it("cannot read another user's job or logs as resources", async () => {
      await expect(bobClient.readResource({ uri: `cronbeam://jobs/${aliceJob.job_id}` })).rejects.toMatchObject({ code: -32002 });
      await expect(bobClient.readResource({ uri: `cronbeam://jobs/${aliceJob.job_id}/logs` })).rejects.toMatchObject({ code: -32002 });
    });
  });
});
