import { NodeApiError, NodeOperationError, type IDataObject, type INodeExecutionData } from 'n8n-workflow';
import { HttpTarget } from '../fakes/http-target';
import { RESPONSE_RULE_SHAPES } from '../support/job-shapes';
import { startTestServer, type TestServer } from '../support/test-server';
import { CronbeamApi } from '../../integrations/n8n-node/credentials/CronbeamApi.credentials';
import { Cronbeam } from '../../integrations/n8n-node/nodes/Cronbeam/Cronbeam.node';
import { keyedAccount, TEST_ADMIN_TOKEN, type KeyedAccount } from './support/cronbeam-fixtures';
import { N8nRuntime, testCredential } from './support/n8n-runtime';

jest.setTimeout(60_000);

/**
 * The Cronbeam action node and its credential test, run as n8n runs them
 * (execute() with an execution context) against the real app over HTTP.
 */
describe('n8n node Cronbeam', () => {
  let server: TestServer;
  let target: HttpTarget;
  let pro: KeyedAccount;
  let runtime: N8nRuntime;
  const node = new Cronbeam();
  const description = node.description;

  const byId = (value: string) => ({ __rl: true, mode: 'id', value });
  const byName = (value: string) => ({ __rl: true, mode: 'name', value });
  const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

  /** One execute() over one input item per parameter set. */
  async function run(parameters: IDataObject | IDataObject[], options: { continueOnFail?: boolean; on?: N8nRuntime } = {}): Promise<INodeExecutionData[]> {
    const context = (options.on ?? runtime).executeContext(description, parameters, { continueOnFail: options.continueOnFail });
    const [output] = await node.execute.call(context);
    return output;
  }
  const json = async (parameters: IDataObject): Promise<IDataObject> => {
    const output = await run(parameters);
    expect(output).toHaveLength(1);
    return output[0].json;
  };
  const failure = async (parameters: IDataObject): Promise<Error> => {
    try {
      await run(parameters);
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected execute() to fail');
  };
  const create = (name: string, extra: IDataObject = {}) =>
    json({ resource: 'job', operation: 'create', name, url: `${target.url}/ok`, cronExpression: '0 0 1 1 *', ...extra });

  /** A created job as every later answer shows it: the creation alone answers the signing secret. */
  const withoutSecret = ({ signing_secret: _secret, ...job }: IDataObject) => job;

  /** What the API itself holds, read with the same key outside the node. */
  const apiGet = (path: string) => server.http.get(path, { headers: { 'X-API-Key': String(pro.credentials.apiKey), 'X-User-ID': String(pro.credentials.userId) } });

  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/fail', (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom');
    });
    // The scheduler stays off: runs come only from "run now", so each test knows every log line.
    // One key makes all of this file's calls within a minute: the per-key rate limit must not be what a test meets.
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, ALLOW_PRIVATE_TARGETS: 'true', PROG_RATE_LIMIT: '1000' });
    pro = await keyedAccount(server, 'pro');
    runtime = new N8nRuntime(new CronbeamApi(), pro.credentials);
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  describe('credential test (declarative, run as n8n runs it)', () => {
    const test = (data: IDataObject) => testCredential(new CronbeamApi(), data as never);

    it('accepts a working key with its user id, with or without a trailing slash on the Base URL', async () => {
      await expect(test(pro.credentials)).resolves.toEqual({ status: 'OK', message: 'Connection successful!' });
      await expect(test({ ...pro.credentials, baseUrl: `${pro.credentials.baseUrl}/` })).resolves.toMatchObject({ status: 'OK' });
    });

    it('says the key was refused for a wrong key and for another user\'s id', async () => {
      const refused = { status: 'Error', message: expect.stringMatching(/^Cronbeam refused the API key/) };
      await expect(test({ ...pro.credentials, apiKey: 'cb_not-a-key' })).resolves.toEqual(refused);
      await expect(test({ ...pro.credentials, userId: '00000000-0000-4000-8000-000000000000' })).resolves.toEqual(refused);
    });

    it('tells an unreachable service and a Base URL without the API apart from a bad key', async () => {
      const closed = await HttpTarget.start();
      const closedUrl = closed.url;
      await closed.close();
      await expect(test({ ...pro.credentials, baseUrl: closedUrl })).resolves.toEqual({ status: 'Error', message: 'ECONNREFUSED' });
      // Another web server at the Base URL: its /prog/jobs is a 404 page.
      target.on('/elsewhere/prog/jobs', (_req, res) => {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<html>Not Found</html>');
      });
      await expect(test({ ...pro.credentials, baseUrl: `${target.url}/elsewhere` })).resolves.toEqual({ status: 'Error', message: expect.stringMatching(/^No Cronbeam API at this Base URL/) });
    });
  });

  describe('Job', () => {
    it('creates a job with every field and sends the key and user id the credential defines', async () => {
      runtime.requests.length = 0;
      const job = await create('n8n-create', {
        additionalFields: {
          method: 'POST',
          body: '{"hello":"n8n"}',
          notifyOnFailure: true,
          headers: { header: [{ name: 'X-Token', value: 'abc' }, { name: 'Content-Type', value: 'application/json' }] },
        },
      });
      expect(job).toMatchObject({
        name: 'n8n-create',
        url: `${target.url}/ok`,
        method: 'POST',
        body: '{"hello":"n8n"}',
        cron_expression: '0 0 1 1 *',
        notify_on_failure: true,
        headers: { 'X-Token': 'abc', 'Content-Type': 'application/json' },
        status: 'pending',
      });
      expect(job.signing_secret).toMatch(/^cbsig_/);
      expect((await apiGet(`/prog/jobs/${job.job_id}`)).body).toEqual(withoutSecret(job));
      expect(runtime.requests).toEqual([
        { method: 'POST', url: `${server.baseUrl}/prog/jobs`, headers: { 'X-API-Key': pro.credentials.apiKey, 'X-User-ID': pro.credentials.userId } },
      ]);
    });

    it('gets a job picked from the list, by name and by ID', async () => {
      const job = await create('n8n-get');
      for (const locator of [fromList(String(job.job_id)), byName('n8n-get'), byId(String(job.job_id))]) {
        expect(await json({ resource: 'job', operation: 'get', jobId: locator })).toEqual(withoutSecret(job));
      }
      const unknown = await failure({ resource: 'job', operation: 'get', jobId: byName('no-such-job') });
      expect(unknown).toBeInstanceOf(NodeOperationError);
      expect(unknown.message).toBe("No job named 'no-such-job'");
    });

    it('lists jobs for the "From List" picker, filtered by what is typed', async () => {
      await create('picker-alpha');
      await create('picker-beta');
      const all = await node.methods.listSearch.searchJobs.call(runtime.loadOptionsContext(description));
      expect(all.results.map((r) => r.name)).toEqual(expect.arrayContaining(['picker-alpha', 'picker-beta']));
      const filtered = await node.methods.listSearch.searchJobs.call(runtime.loadOptionsContext(description), 'ALPHA');
      expect(filtered.results).toEqual([{ name: 'picker-alpha', value: expect.any(String) }]);
      expect((await apiGet(`/prog/jobs/${filtered.results[0].value}`)).body.name).toBe('picker-alpha');
    });

    it('gets many jobs: limit, return all, status filter', async () => {
      const all = (await apiGet('/prog/jobs')).body as Array<{ job_id: string }>;
      expect(all.length).toBeGreaterThanOrEqual(3);
      const limited = await run({ resource: 'job', operation: 'getAll', limit: 2 });
      expect(limited.map((item) => item.json.job_id)).toEqual(all.slice(0, 2).map((j) => j.job_id));
      const everything = await run({ resource: 'job', operation: 'getAll', returnAll: true });
      expect(everything.map((item) => item.json.job_id)).toEqual(all.map((j) => j.job_id));

      const paused = await create('n8n-filter-paused');
      await run({ resource: 'job', operation: 'pause', jobId: byId(String(paused.job_id)) });
      const onlyPaused = await run({ resource: 'job', operation: 'getAll', returnAll: true, filters: { status: ['paused'] } });
      expect(onlyPaused.map((item) => item.json.job_id)).toEqual([paused.job_id]);
    });

    it('updates only the fields given and keeps the others', async () => {
      const job = await create('n8n-update', { additionalFields: { method: 'PUT', body: 'keep me', headers: { header: [{ name: 'X-Keep', value: '1' }] } } });
      const updated = await json({ resource: 'job', operation: 'update', jobId: byName('n8n-update'), updateFields: { cronExpression: '30 14 * * SUN', notifyOnFailure: true } });
      expect(updated).toMatchObject({ job_id: job.job_id, name: 'n8n-update', method: 'PUT', body: 'keep me', headers: { 'X-Keep': '1' }, cron_expression: '30 14 * * SUN', notify_on_failure: true });
      expect((await apiGet(`/prog/jobs/${job.job_id}`)).body).toEqual(updated);

      const nothing = await failure({ resource: 'job', operation: 'update', jobId: byId(String(job.job_id)) });
      expect(nothing.message).toBe('Add at least one field to update');
    });

    it('creates a job on an interval with its policies, and an update to a cron expression replaces the schedule', async () => {
      const job = await create('n8n-every', { cronExpression: '', additionalFields: { everySeconds: 3600, jitterSeconds: 30, overlap: 'skip', catchUp: 'all_within', catchUpWindowSeconds: 600 } });
      expect(job).toMatchObject({ cron_expression: null, every_seconds: 3600, jitter_seconds: 30, overlap: 'skip', catch_up: 'all_within', catch_up_window_seconds: 600 });
      const moved = await json({ resource: 'job', operation: 'update', jobId: byId(String(job.job_id)), updateFields: { cronExpression: '0 4 * * *', catchUp: 'none' } });
      expect(moved).toMatchObject({ cron_expression: '0 4 * * *', every_seconds: null, jitter_seconds: 30, overlap: 'skip', catch_up: 'none', catch_up_window_seconds: null });
      await json({ resource: 'job', operation: 'delete', jobId: byId(String(job.job_id)) });
    });

    it('creates a job with a time zone, response rules, a timeout and auto-pause, and updates the rules field by field', async () => {
      const job = await create('n8n-rules', {
        cronExpression: '30 2 * * *',
        additionalFields: { timeZone: 'Europe/Berlin', timeoutSeconds: 15, autoPauseAfter: 3, expectedStatus: '200-299, 304', bodyContains: 'done', jsonPath: '$.state', jsonEquals: 'true' },
      });
      expect(job).toMatchObject({
        time_zone: 'Europe/Berlin',
        timeout_seconds: 15,
        auto_pause_after: 3,
        response_rules: { expected_status: '200-299, 304', body_contains: 'done', json_path: '$.state', json_equals: true },
      });
      // The next run is 02:30 on Berlin's clocks (03:30 on the night they skip 02:30).
      const berlin = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      expect(['02:30', '03:30']).toContain(berlin.format(new Date(String(job.next_run_at))));

      // Only the rule named changes; an emptied rule is off; the other fields stay.
      const updated = await json({ resource: 'job', operation: 'update', jobId: byId(String(job.job_id)), updateFields: { bodyContains: '', jsonEquals: 'ready' } });
      expect(updated).toMatchObject({
        time_zone: 'Europe/Berlin',
        timeout_seconds: 15,
        auto_pause_after: 3,
        response_rules: { expected_status: '200-299, 304', body_contains: null, json_path: '$.state', json_equals: 'ready' },
      });
      expect((await apiGet(`/prog/jobs/${job.job_id}`)).body).toEqual(updated);

      const badZone = await failure({ resource: 'job', operation: 'update', jobId: byId(String(job.job_id)), updateFields: { timeZone: 'Mars/Olympus' } });
      expect(badZone).toBeInstanceOf(NodeApiError);
      expect(badZone.message).toContain('Time zone must be an IANA time zone name');
    });

    describe('response rules of every shape', () => {
      /** The node's rule fields for each shape of RESPONSE_RULE_SHAPES (the node sets no rules by leaving every rule field out). */
      const ruleFields: Record<string, IDataObject> = {
        'body_contains only': { bodyContains: 'ok' },
        'expected_status only': { expectedStatus: '200-299, 304' },
        'json_path with json_equals': { jsonPath: '$.status', jsonEquals: 'ok' },
        'json_path that must hold null': { jsonPath: '$.error', jsonEquals: 'null' },
        'expected_status and body_contains': { expectedStatus: '200', bodyContains: 'done' },
        'every rule': { expectedStatus: '200-299, 304', bodyContains: 'done', jsonPath: '$.checks[0].ok', jsonEquals: 'true' },
        'an empty object (the default status only)': { expectedStatus: '200-299' },
        'none (null)': {},
      };
      /** Every rule field set, so an update replaces the rules instead of changing some of them (emptied fields turn rules off). */
      const replacing = (fields: IDataObject): IDataObject => ({ expectedStatus: '200-299', bodyContains: '', jsonPath: '', ...fields });
      const noRules = { expected_status: '200-299', body_contains: null, json_path: null, json_equals: null };

      // Each shape is created, kept through an update of another field, then replaced by the next shape (the last by the first).
      it.each(RESPONSE_RULE_SHAPES.map(([shape, , answered], index) => [shape, index, answered] as const))(
        'creates a job with %s, keeps them through an update of another field, then replaces them with the next shape',
        async (shape, index, answered) => {
          const job = await create(`n8n-rule-shape-${index}`, { additionalFields: ruleFields[shape] });
          expect(job.response_rules).toEqual(answered);

          const retimed = await json({ resource: 'job', operation: 'update', jobId: byId(String(job.job_id)), updateFields: { timeoutSeconds: 7 } });
          expect(retimed).toMatchObject({ timeout_seconds: 7, response_rules: answered });

          const [next, , nextAnswered] = RESPONSE_RULE_SHAPES[(index + 1) % RESPONSE_RULE_SHAPES.length];
          const replaced = await json({ resource: 'job', operation: 'update', jobId: byId(String(job.job_id)), updateFields: replacing(ruleFields[next]) });
          expect(replaced).toMatchObject({ timeout_seconds: 7, response_rules: nextAnswered ?? noRules });
          expect((await apiGet(`/prog/jobs/${job.job_id}`)).body).toEqual(replaced);
          await json({ resource: 'job', operation: 'delete', jobId: byId(String(job.job_id)) });
        },
      );
    });

    it('pauses and resumes a job', async () => {
      const job = await create('n8n-pause');
      expect(await json({ resource: 'job', operation: 'pause', jobId: byId(String(job.job_id)) })).toMatchObject({ status: 'paused', next_run_at: null });
      const resumed = await json({ resource: 'job', operation: 'resume', jobId: byId(String(job.job_id)) });
      expect(resumed).toMatchObject({ status: 'scheduled', next_run_at: '2027-01-01T00:00:00.000Z' });
    });

    it('runs a job now and returns the outcome of that run', async () => {
      const ok = await create('n8n-run-ok');
      const success = await json({ resource: 'job', operation: 'run', jobId: byId(String(ok.job_id)) });
      expect(success).toMatchObject({ job_id: ok.job_id, trigger: 'manual', status: 'success', response_code: 200, response_body: '{"ok":true}' });
      expect(target.requests('/ok').length).toBeGreaterThanOrEqual(1);

      const bad = await create('n8n-run-fail', { url: `${target.url}/fail` });
      const failed = await json({ resource: 'job', operation: 'run', jobId: byName('n8n-run-fail') });
      expect(failed).toMatchObject({ job_id: bad.job_id, trigger: 'manual', status: 'failed', response_code: 500 });
    });

    it('deletes a job; reading it afterwards fails with the API message as a NodeApiError', async () => {
      const job = await create('n8n-delete');
      expect(await json({ resource: 'job', operation: 'delete', jobId: byId(String(job.job_id)) })).toEqual({ job_id: job.job_id, deleted: true, message: 'Job deleted' });
      expect((await apiGet(`/prog/jobs/${job.job_id}`)).status).toBe(404);

      const gone = await failure({ resource: 'job', operation: 'get', jobId: byId(String(job.job_id)) });
      expect(gone).toBeInstanceOf(NodeApiError);
      expect(gone).toMatchObject({ message: 'Job not found', httpCode: '404' });
    });
  });

  describe('Log', () => {
    it("gets a job's latest runs, newest first, with limit and status filter", async () => {
      target.on('/flip', (_req, res) => {
        res.writeHead(target.requests('/flip').length % 2 ? 503 : 200);
        res.end();
      });
      const job = await create('n8n-logs', { url: `${target.url}/flip` });
      const outcomes: unknown[] = [];
      for (let i = 0; i < 4; i += 1) outcomes.push((await json({ resource: 'job', operation: 'run', jobId: byId(String(job.job_id)) })).status);
      expect(outcomes).toEqual(['failed', 'success', 'failed', 'success']);

      const everything = await run({ resource: 'log', operation: 'getAll', jobId: byName('n8n-logs'), returnAll: true });
      expect(everything.map((item) => item.json.status)).toEqual(['success', 'failed', 'success', 'failed']);
      expect(everything.every((item) => item.json.job_id === job.job_id && item.json.trigger === 'manual')).toBe(true);
      const newest = await run({ resource: 'log', operation: 'getAll', jobId: byName('n8n-logs'), limit: 1 });
      expect(newest.map((item) => item.json.run_id)).toEqual([everything[0].json.run_id]);
      const failures = await run({ resource: 'log', operation: 'getAll', jobId: byName('n8n-logs'), returnAll: true, filters: { status: ['failed'] } });
      expect(failures.map((item) => item.json.response_code)).toEqual([503, 503]);
    });
  });

  describe('Monitor', () => {
    const createMonitor = (name: string, extra: IDataObject = {}) => json({ resource: 'monitor', operation: 'create', name, periodSeconds: 3600, ...extra });

    it('creates monitors on a period and on a cron expression, and finds one from the list, by name and by ID', async () => {
      const hourly = await createMonitor('n8n backup', { additionalFields: { graceSeconds: 300 } });
      expect(hourly).toMatchObject({ name: 'n8n backup', period_seconds: 3600, cron_expression: null, time_zone: 'UTC', grace_seconds: 300, channel_ids: null, status: 'new' });
      expect(hourly.ping_url).toMatch(/\/ping\/[A-Za-z0-9_-]{20,}$/);
      expect((await apiGet(`/prog/monitors/${hourly.monitor_id}`)).body).toEqual(hourly);

      const nightly = await json({ resource: 'monitor', operation: 'create', name: 'n8n nightly', scheduleType: 'cron', cronExpression: '0 3 * * *', timeZone: 'Europe/Berlin' });
      expect(nightly).toMatchObject({ period_seconds: null, cron_expression: '0 3 * * *', time_zone: 'Europe/Berlin', grace_seconds: 60 });

      for (const locator of [fromList(String(hourly.monitor_id)), byName('N8N BACKUP'), byId(String(hourly.monitor_id))]) {
        expect(await json({ resource: 'monitor', operation: 'get', monitorId: locator })).toEqual(hourly);
      }
      const picker = await node.methods.listSearch.searchMonitors.call(runtime.loadOptionsContext(description), 'nightly');
      expect(picker.results).toEqual([{ name: 'n8n nightly', value: nightly.monitor_id }]);

      const unknown = await failure({ resource: 'monitor', operation: 'get', monitorId: byName('no such monitor') });
      expect(unknown).toBeInstanceOf(NodeOperationError);
      expect(unknown.message).toBe("No monitor named 'no such monitor'");
      // Monitor names are not unique: a shared one is refused with the ids to choose from.
      const twin = await createMonitor('n8n backup');
      const ambiguous = await failure({ resource: 'monitor', operation: 'get', monitorId: byName('n8n backup') });
      expect(ambiguous.message).toBe(`Several monitors are named 'n8n backup': ${hourly.monitor_id}, ${twin.monitor_id}. Give the monitor ID instead.`);
    });

    it('pings a monitor without sending the key: start and success record the run time, fail takes it down', async () => {
      const monitor = await createMonitor('n8n pinged');
      runtime.requests.length = 0;
      expect(await json({ resource: 'monitor', operation: 'ping', monitorId: byId(String(monitor.monitor_id)), pingKind: 'start' })).toEqual({
        monitor_id: monitor.monitor_id,
        name: 'n8n pinged',
        kind: 'start',
        message: 'OK',
      });
      const pingPath = new URL(String(monitor.ping_url)).pathname;
      const pingRequest = runtime.requests.find((r) => r.url.endsWith('/start'));
      expect(pingRequest).toEqual({ method: 'POST', url: `${server.baseUrl}${pingPath}/start`, headers: {} });

      await json({ resource: 'monitor', operation: 'ping', monitorId: byName('n8n pinged') });
      const up = (await apiGet(`/prog/monitors/${monitor.monitor_id}`)).body;
      expect(up).toMatchObject({ status: 'up', last_duration_ms: expect.any(Number), due_at: expect.any(String) });

      await json({ resource: 'monitor', operation: 'ping', monitorId: byName('n8n pinged'), pingKind: 'fail' });
      const events = await run({ resource: 'monitor', operation: 'getEvents', monitorId: byName('n8n pinged'), returnAll: true });
      expect(events.map((item) => item.json.kind)).toEqual(['fail', 'success', 'start']);
      expect(events.every((item) => item.json.monitor_id === monitor.monitor_id)).toBe(true);
      const latest = await run({ resource: 'monitor', operation: 'getEvents', monitorId: byName('n8n pinged'), limit: 1 });
      expect(latest.map((item) => item.json.kind)).toEqual(['fail']);

      const down = await run({ resource: 'monitor', operation: 'getAll', returnAll: true, filters: { status: ['down'] } });
      expect(down.map((item) => item.json.monitor_id)).toEqual([monitor.monitor_id]);
    });

    it('updates only the fields given: a cron expression replaces the period, a period the cron expression and its time zone', async () => {
      const monitor = await createMonitor('n8n reshaped', { additionalFields: { graceSeconds: 120 } });
      const toCron = await json({ resource: 'monitor', operation: 'update', monitorId: byId(String(monitor.monitor_id)), updateFields: { cronExpression: '*/15 * * * *', timeZone: 'Asia/Tokyo' } });
      expect(toCron).toMatchObject({ name: 'n8n reshaped', period_seconds: null, cron_expression: '*/15 * * * *', time_zone: 'Asia/Tokyo', grace_seconds: 120, ping_url: monitor.ping_url });
      const toPeriod = await json({ resource: 'monitor', operation: 'update', monitorId: byId(String(monitor.monitor_id)), updateFields: { periodSeconds: 600, name: 'n8n ten minutes' } });
      expect(toPeriod).toMatchObject({ name: 'n8n ten minutes', period_seconds: 600, cron_expression: null, time_zone: 'UTC', grace_seconds: 120 });
      expect((await apiGet(`/prog/monitors/${monitor.monitor_id}`)).body).toEqual(toPeriod);

      const nothing = await failure({ resource: 'monitor', operation: 'update', monitorId: byId(String(monitor.monitor_id)) });
      expect(nothing.message).toBe('Add at least one field to update');
      const both = await failure({ resource: 'monitor', operation: 'update', monitorId: byId(String(monitor.monitor_id)), updateFields: { periodSeconds: 60, cronExpression: '* * * * *' } });
      expect(both).toBeInstanceOf(NodeApiError);
      expect(both.message).toContain('Give either period_seconds or cron_expression, not both');
      const badPeriod = await failure({ resource: 'monitor', operation: 'create', name: 'n8n too often', periodSeconds: 0 });
      expect(badPeriod).toMatchObject({ httpCode: '422' });
      expect(badPeriod.message).toBe('period_seconds: period_seconds must be a whole number from 1 to 2678400');
    });

    it('pauses, resumes and deletes a monitor; its ping URL stops working', async () => {
      const monitor = await createMonitor('n8n short-lived');
      expect(await json({ resource: 'monitor', operation: 'pause', monitorId: byId(String(monitor.monitor_id)) })).toMatchObject({ status: 'paused', due_at: null });
      expect(await json({ resource: 'monitor', operation: 'resume', monitorId: byId(String(monitor.monitor_id)) })).toMatchObject({ status: 'new' });
      expect(await json({ resource: 'monitor', operation: 'delete', monitorId: byName('n8n short-lived') })).toEqual({
        monitor_id: monitor.monitor_id,
        deleted: true,
        message: 'Monitor deleted',
      });
      const gone = await failure({ resource: 'monitor', operation: 'get', monitorId: byId(String(monitor.monitor_id)) });
      expect(gone).toMatchObject({ message: 'Monitor not found', httpCode: '404' });
      expect((await server.http.post(new URL(String(monitor.ping_url)).pathname)).status).toBe(404);
    });
  });

  describe('errors', () => {
    it("turns a 422 into a NodeApiError naming the field with the API's message", async () => {
      const error = await failure({ resource: 'job', operation: 'create', name: 'has spaces', url: 'ftp://example.com', cronExpression: '* * *' });
      expect(error).toBeInstanceOf(NodeApiError);
      expect((error as NodeApiError).httpCode).toBe('422');
      expect(error.message).toContain('name: Name can only contain letters, numbers, hyphens (-), and underscores (_)');
      expect(error.message).toContain('url: URL must start with http:// or https://');
      expect(error.message).toMatch(/cron_expression: /);
    });

    it('reports a plan limit with its figures, and a rejected key, as NodeApiErrors', async () => {
      const free = await keyedAccount(server, 'free');
      const freeRuntime = new N8nRuntime(new CronbeamApi(), free.credentials);
      for (const name of ['free-1', 'free-2']) await run({ resource: 'job', operation: 'create', name, url: 'https://example.com', cronExpression: '* * * * *' }, { on: freeRuntime });
      const limit = await run({ resource: 'job', operation: 'create', name: 'free-3', url: 'https://example.com', cronExpression: '* * * * *' }, { on: freeRuntime }).catch((e: NodeApiError) => e);
      expect(limit).toBeInstanceOf(NodeApiError);
      expect(limit).toMatchObject({ message: 'Job limit exceeded', httpCode: '403', description: 'plan: free, job_count: 2, max_jobs: 2' });

      const wrongKey = new N8nRuntime(new CronbeamApi(), { ...pro.credentials, apiKey: 'cb_wrong' });
      const rejected = await run({ resource: 'job', operation: 'getAll' }, { on: wrongKey }).catch((e: NodeApiError) => e);
      expect(rejected).toBeInstanceOf(NodeApiError);
      expect(rejected).toMatchObject({ message: 'Invalid API key', httpCode: '401' });
    });

    it('names the URL it tried when Cronbeam does not answer at all', async () => {
      const closed = await HttpTarget.start();
      await closed.close();
      const offline = new N8nRuntime(new CronbeamApi(), { ...pro.credentials, baseUrl: closed.url });
      const error = (await run({ resource: 'job', operation: 'getAll' }, { on: offline }).catch((e: NodeApiError) => e)) as NodeApiError;
      expect(error).toBeInstanceOf(NodeApiError);
      // The socket error ("connect ECONNREFUSED …") in words: left in, NodeApiError would replace the whole message, URL included, with its generic text.
      expect(error.message).toBe(`Cronbeam did not answer at ${closed.url}/prog/jobs: the connection was refused (is Cronbeam running there, and is the Base URL right?)`);
    });

    it('reports an answer without the API\'s error body (a proxy\'s 502 page) by its status', async () => {
      target.on('/prog/jobs', (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad Gateway</html>');
      });
      const proxied = new N8nRuntime(new CronbeamApi(), { ...pro.credentials, baseUrl: target.url });
      const error = (await run({ resource: 'job', operation: 'getAll' }, { on: proxied }).catch((e: NodeApiError) => e)) as NodeApiError;
      expect(error).toBeInstanceOf(NodeApiError);
      expect(error).toMatchObject({ message: 'Cronbeam answered 502 to GET /prog/jobs', httpCode: '502' });
    });

    it('with "Continue On Fail", returns the error as that item and carries on with the next', async () => {
      const output = await run(
        [
          { resource: 'job', operation: 'create', name: 'bad name!', url: 'https://example.com', cronExpression: '*/5 * * * *' },
          { resource: 'job', operation: 'create', name: 'n8n-after-error', url: 'https://example.com', cronExpression: '*/5 * * * *' },
          { resource: 'job', operation: 'get', jobId: byName('missing-job') },
        ],
        { continueOnFail: true },
      );
      expect(output).toEqual([
        {
          json: { error: 'name: Name can only contain letters, numbers, hyphens (-), and underscores (_)', description: 'POST /prog/jobs answered 422' },
          pairedItem: { item: 0 },
        },
        { json: expect.objectContaining({ name: 'n8n-after-error', status: 'pending' }), pairedItem: { item: 1 } },
        { json: { error: "No job named 'missing-job'" }, pairedItem: { item: 2 } },
      ]);

      // Without it, the first bad item stops the run and nothing after it is created.
      const stopped = await run(
        [
          { resource: 'job', operation: 'create', name: 'bad name!', url: 'https://example.com', cronExpression: '*/5 * * * *' },
          { resource: 'job', operation: 'create', name: 'n8n-never', url: 'https://example.com', cronExpression: '*/5 * * * *' },
        ],
      ).catch((e: NodeApiError) => e);
      expect(stopped).toBeInstanceOf(NodeApiError);
      expect((stopped as NodeApiError).context.itemIndex).toBe(0);
      expect(((await apiGet('/prog/jobs')).body as Array<{ name: string }>).map((j) => j.name)).not.toContain('n8n-never');
    });
  });
});
