import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { HttpTarget } from '../../../test/fakes/http-target';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { until } from '../../../test/support/until';
import { ADMIN_TOKEN, apiUser, type ApiUser } from '../../mcp-server/test/support/cronbeam-fixture';
import { createCronbeamClient, unwrap, type CronbeamClient, type Job, type JobDefinition, type Monitor, type MonitorDefinition } from '../../sdk/src';
import { BuiltCli, PACKAGE_DIR, runCommand, type CliResult } from './cli-harness';

/** The cronbeam CLI, built and run as a child process, against a real running Cronbeam. */
describe('cronbeam CLI', () => {
  let cronbeam: TestServer;
  let target: HttpTarget;
  let cli: BuiltCli;
  let alice: ApiUser;
  let work: string;

  /** Runs the CLI as `user` through the MCP server's variables (what CI does), with its own config folder. */
  const as = (user: ApiUser, args: string[], input?: string, extraEnv: Record<string, string> = {}) => cli.run(args, { ...user.env, CRONBEAM_CONFIG_DIR: join(work, 'env-config'), CRONBEAM_KEYCHAIN: 'off', ...extraEnv }, input);
  const sdkFor = (user: ApiUser): CronbeamClient => createCronbeamClient({ baseUrl: cronbeam.baseUrl, apiKey: user.apiKey, userId: user.account.userId });
  const ok = (result: CliResult) => {
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}${result.stdout}`);
    return result.stdout;
  };

  beforeAll(async () => {
    cli = BuiltCli.build();
    work = mkdtempSync(join(tmpdir(), 'cronbeam-cli-work-'));
    target = await HttpTarget.start();
    target.on('/ok', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    target.on('/broken', (_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('database unavailable'));
    // The apply property makes hundreds of calls with one key: no rate limit in the way.
    cronbeam = await startTestServer({ ALLOW_PRIVATE_TARGETS: 'true', ADMIN_TOKEN, EXECUTION_TIMEOUT_MS: '5000', PROG_RATE_LIMIT: '1000000' });
    alice = await apiUser(cronbeam, 'pro');
  });

  afterAll(async () => {
    await cronbeam?.close();
    await target?.close();
    cli?.remove();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe('login', () => {
    const loginEnv = () => ({ CRONBEAM_CONFIG_DIR: join(work, 'login-config'), CRONBEAM_KEYCHAIN: 'off' });

    it('keeps a checked key in a file only its owner can read (no keychain here), and later commands use it', async () => {
      const args = ['login', '--url', cronbeam.baseUrl, '--user-id', alice.account.userId, '--api-key-stdin'];
      const out = ok(await cli.run(args, loginEnv(), `${alice.apiKey}\n`));
      const file = join(work, 'login-config', 'config.json');
      expect(out).toContain(`Logged in to ${cronbeam.baseUrl} as ${alice.account.userId}; the key is kept in ${file}`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: cronbeam.baseUrl, user_id: alice.account.userId, key_in: 'file', api_key: alice.apiKey });
      expect(JSON.parse(ok(await cli.run(['jobs', 'list', '--json'], loginEnv())))).toEqual(expect.any(Array));
      // The MCP server's variables override the stored login.
      const overridden = await cli.run(['jobs', 'list'], { ...loginEnv(), CRONBEAM_API_KEY: 'cb_live_not-a-key' });
      expect(overridden).toMatchObject({ code: 3, stderr: expect.stringContaining('cronbeam: Invalid API key (HTTP 401)') });
      expect(ok(await cli.run(['logout'], loginEnv()))).toBe('Logged out\n');
      expect(await cli.run(['jobs', 'list'], loginEnv())).toMatchObject({ code: 3, stderr: expect.stringContaining('Not logged in: run cronbeam login') });
    });

    it('keeps nothing when the API refuses the key, and asks for flags when there is no terminal', async () => {
      const env = { CRONBEAM_CONFIG_DIR: join(work, 'refused-config'), CRONBEAM_KEYCHAIN: 'off' };
      const refused = await cli.run(['login', '--url', cronbeam.baseUrl, '--user-id', alice.account.userId, '--api-key', 'cb_live_wrong'], env);
      expect(refused).toMatchObject({ code: 3, stderr: expect.stringContaining('Invalid API key') });
      expect(() => statSync(join(work, 'refused-config', 'config.json'))).toThrow();
      expect(await cli.run(['login', '--url', cronbeam.baseUrl], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--user-id is required when not run in a terminal') });
      expect(await cli.run(['login', '--url', 'ftp://example.com'], env)).toMatchObject({ code: 2 });
    });
  });

  describe('jobs', () => {
    it('create, get, update, pause, resume, run, logs and delete, in tables and in JSON', async () => {
      const created = JSON.parse(ok(await as(alice, ['jobs', 'create', '--name', 'cli-ping', '--url', `${target.url}/ok`, '--cron', '0 2 * * *', '--time-zone', 'Europe/Berlin', '--header', 'X-Token: abc', '--json'])));
      expect(created).toMatchObject({ name: 'cli-ping', cron_expression: '0 2 * * *', time_zone: 'Europe/Berlin', headers: { 'X-Token': 'abc' }, status: 'pending' });
      const table = ok(await as(alice, ['jobs', 'list']));
      expect(table.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+SCHEDULE\s+TIME ZONE\s+NEXT RUN\s+ID$/);
      expect(table).toMatch(new RegExp(`cli-ping\\s+pending\\s+0 2 \\* \\* \\*\\s+Europe/Berlin\\s+\\S+\\s+${created.job_id}`));
      expect(ok(await as(alice, ['jobs', 'get', 'CLI-PING']))).toMatch(new RegExp(`^job_id:\\s+${created.job_id}$`, 'm'));
      const updated = JSON.parse(ok(await as(alice, ['jobs', 'update', 'cli-ping', '--cron', '30 3 * * *', '--json'])));
      // The fields not given keep their values.
      expect(updated).toMatchObject({ cron_expression: '30 3 * * *', time_zone: 'Europe/Berlin', headers: { 'X-Token': 'abc' } });
      expect(ok(await as(alice, ['jobs', 'pause', 'cli-ping']))).toBe('Paused job cli-ping (status paused)\n');
      expect(ok(await as(alice, ['jobs', 'resume', created.job_id]))).toMatch(/^Resumed job cli-ping \(status \w+\)\n$/);
      const run = ok(await as(alice, ['jobs', 'run', 'cli-ping']));
      expect(run).toMatch(/manual\s+success\s+200/);
      const logs = JSON.parse(ok(await as(alice, ['jobs', 'logs', 'cli-ping', '--json'])));
      expect(logs).toEqual([expect.objectContaining({ status: 'success', response_code: 200, trigger: 'manual' })]);
      expect(ok(await as(alice, ['jobs', 'delete', 'cli-ping']))).toBe('Deleted job cli-ping\n');
      expect(await as(alice, ['jobs', 'get', 'cli-ping'])).toMatchObject({ code: 4, stderr: "cronbeam: No job named 'cli-ping'\n" });
      expect(await as(alice, ['jobs', 'get', created.job_id])).toMatchObject({ code: 4, stderr: 'cronbeam: Job not found (HTTP 404)\n' });
    });

    it('a failed run exits 1 naming the failure; logs --follow prints each new run once', async () => {
      ok(await as(alice, ['jobs', 'create', '--name', 'cli-broken', '--url', `${target.url}/broken`, '--cron', '0 2 * * *']));
      const failed = await as(alice, ['jobs', 'run', 'cli-broken']);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/manual\s+failed\s+500/);
      expect(failed.stderr).toMatch(/^cronbeam: Run of cli-broken failed/);
      const job = JSON.parse(ok(await as(alice, ['jobs', 'get', 'cli-broken', '--json'])));
      const follower = spawn(process.execPath, [cli.binPath, 'jobs', 'logs', 'cli-broken', '--follow', '--interval', '1', '--json'], {
        env: { PATH: process.env.PATH ?? '', ...alice.env, CRONBEAM_KEYCHAIN: 'off', CRONBEAM_CONFIG_DIR: join(work, 'env-config') },
      });
      let out = '';
      follower.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      const lines = () => Promise.resolve(out.split('\n').filter(Boolean));
      try {
        await until(lines, (printed) => printed.length === 1);
        await unwrap(sdkFor(alice).POST('/prog/jobs/{job_id}/run', { params: { path: { job_id: job.job_id } } }));
        const printed = (await until(lines, (all) => all.length === 2)).map((line) => JSON.parse(line));
        expect(printed.map((entry) => entry.status)).toEqual(['failed', 'failed']);
        expect(new Set(printed.map((entry) => entry.run_id)).size).toBe(2);
      } finally {
        follower.kill();
      }
    });

    it('creates a job on an interval with its policies, shows its schedule, and an update to a cron expression or one instant replaces it', async () => {
      const created = JSON.parse(ok(await as(alice, ['jobs', 'create', '--name', 'cli-every', '--url', `${target.url}/ok`, '--every', '3600', '--jitter', '30', '--overlap', 'skip', '--catch-up', 'all_within', '--catch-up-window', '600', '--json'])));
      expect(created).toMatchObject({ cron_expression: null, every_seconds: 3600, jitter_seconds: 30, overlap: 'skip', catch_up: 'all_within', catch_up_window_seconds: 600 });
      expect(ok(await as(alice, ['jobs', 'list']))).toMatch(/cli-every\s+pending\s+every 3600s\s+UTC/);
      const cron = JSON.parse(ok(await as(alice, ['jobs', 'update', 'cli-every', '--cron', '0 4 * * *', '--json'])));
      expect(cron).toMatchObject({ cron_expression: '0 4 * * *', every_seconds: null, jitter_seconds: 30, overlap: 'skip' });
      const runAt = new Date(Date.now() + 86_400_000).toISOString();
      const once = JSON.parse(ok(await as(alice, ['jobs', 'update', 'cli-every', '--run-at', runAt, '--json'])));
      expect(once).toMatchObject({ cron_expression: null, run_at: runAt });
      expect(ok(await as(alice, ['jobs', 'list']))).toContain(`once at ${runAt}`);
      ok(await as(alice, ['jobs', 'delete', 'cli-every']));
    });

    it('refuses an invalid definition before sending (exit 2), and says what the API refused (exit 1)', async () => {
      const local = await as(alice, ['jobs', 'create', '--name', 'cli-bad', '--url', 'https://example.com', '--cron', 'every day']);
      expect(local.code).toBe(2);
      expect(local.stderr).toMatch(/^cronbeam: job: cron_expression: /);
      ok(await as(alice, ['jobs', 'create', '--name', 'cli-twice', '--url', `${target.url}/ok`, '--cron', '0 2 * * *']));
      const twice = await as(alice, ['jobs', 'create', '--name', 'CLI-twice', '--url', `${target.url}/ok`, '--cron', '0 2 * * *']);
      expect(twice).toMatchObject({ code: 1, stderr: 'cronbeam: name: A job with this name already exists (HTTP 422)\n' });
      expect(await as(alice, ['jobs', 'frobnicate'])).toMatchObject({ code: 2 });
    });
  });

  describe('monitors and exec', () => {
    it('create, list, get and delete a monitor', async () => {
      const created = ok(await as(alice, ['monitors', 'create', '--name', 'cli-heartbeat', '--period', '3600', '--grace', '120']));
      expect(created).toMatch(/^Created monitor cli-heartbeat; ping http\S+\/ping\/[\w-]+\n$/);
      expect(ok(await as(alice, ['monitors', 'list']))).toMatch(/cli-heartbeat\s+new\s+every 3600 s\s+120 s\s+-\s+[0-9a-f-]{36}/);
      const shown = JSON.parse(ok(await as(alice, ['monitors', 'get', 'cli-heartbeat', '--json'])));
      expect(shown).toMatchObject({ name: 'cli-heartbeat', period_seconds: 3600, grace_seconds: 120, events: [] });
      expect(await as(alice, ['monitors', 'create', '--name', 'cli-both', '--period', '60', '--cron', '* * * * *'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Give either period_seconds or cron_expression, not both') });
      expect(ok(await as(alice, ['monitors', 'delete', 'cli-heartbeat']))).toBe('Deleted monitor cli-heartbeat\n');
      expect(await as(alice, ['monitors', 'get', 'cli-heartbeat'])).toMatchObject({ code: 4 });
    });

    it("exec pings start and success around a command that succeeds, and passes its output through", async () => {
      const monitor = await unwrap(sdkFor(alice).POST('/prog/monitors', { body: { name: 'cli-exec-ok', period_seconds: 3600 } }));
      const result = await as(alice, ['exec', '--monitor', 'cli-exec-ok', '--', process.execPath, '-e', 'console.log("backed up")']);
      expect(result).toMatchObject({ code: 0, stdout: 'backed up\n', stderr: '' });
      const { events } = await unwrap(sdkFor(alice).GET('/prog/monitors/{monitor_id}/events', { params: { path: { monitor_id: monitor.monitor_id } } }));
      expect(events.map((event) => event.kind)).toEqual(['success', 'start']);
      expect((await unwrap(sdkFor(alice).GET('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: monitor.monitor_id } } }))).status).toBe('up');
    });

    it("exec reports a failing command to its monitor and ends with the command's exit status", async () => {
      const monitor = await unwrap(sdkFor(alice).POST('/prog/monitors', { body: { name: 'cli-exec-fail', period_seconds: 3600 } }));
      const result = await as(alice, ['exec', '--monitor', 'cli-exec-fail', '--', process.execPath, '-e', 'process.exit(3)']);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`exited with status 3; monitor 'cli-exec-fail' was told it failed`);
      const read = () => unwrap(sdkFor(alice).GET('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: monitor.monitor_id } } }));
      expect((await read()).status).toBe('down');
      const { events } = await unwrap(sdkFor(alice).GET('/prog/monitors/{monitor_id}/events', { params: { path: { monitor_id: monitor.monitor_id } } }));
      expect(events.map((event) => event.kind)).toEqual(['fail', 'start']);
      const missing = await as(alice, ['exec', '--monitor', 'cli-exec-fail', '--', 'no-such-command-cronbeam']);
      expect(missing).toMatchObject({ code: 127, stderr: expect.stringContaining('no-such-command-cronbeam: command not found') });
    });

    it('exec still runs the command when its monitor cannot be found, and says so', async () => {
      const result = await as(alice, ['exec', '--monitor', 'no-such-monitor', '--', process.execPath, '-e', 'console.log("ran")']);
      expect(result).toMatchObject({ code: 0, stdout: 'ran\n', stderr: "cronbeam: monitor 'no-such-monitor' will not be pinged: No monitor named 'no-such-monitor'\n" });
    });
  });

  describe('apply and export', () => {
    let bob: ApiUser;
    const desiredFile = () => join(work, 'cronbeam.yaml');
    const desiredJobs = (): JobDefinition[] => [
      {
        name: 'nightly-backup',
        url: `${target.url}/ok`,
        method: 'POST',
        cron_expression: '0 2 * * *',
        time_zone: 'Europe/Berlin',
        headers: { 'Content-Type': 'application/json' },
        body: '{"full":true}',
        response_rules: { expected_status: '200', body_contains: 'ok' },
      },
      { name: 'hourly-report', url: `${target.url}/ok`, cron_expression: '0 * * * *', notify_on_failure: true },
    ];
    const desiredMonitors = (): MonitorDefinition[] => [
      { name: 'backup-heartbeat', period_seconds: 86400, grace_seconds: 600 },
      { name: 'weekly-cleanup', cron_expression: '0 4 * * 1', time_zone: 'America/New_York' },
    ];

    /** Each variant of an item a starting state may hold (or not). */
    const jobVariants = (): Record<string, JobDefinition[]> => ({
      'nightly-backup': [desiredJobs()[0] as JobDefinition, { name: 'NIGHTLY-backup', url: `${target.url}/ok`, cron_expression: '5 2 * * *', response_rules: { body_contains: 'fine' } }],
      'hourly-report': [desiredJobs()[1] as JobDefinition, { name: 'hourly-report', url: `${target.url}/broken`, method: 'PUT', body: 'x', headers: { 'X-A': 'b' }, cron_expression: '0 * * * *', timeout_seconds: 5 }],
      'stray-job': [{ name: 'stray-job', url: `${target.url}/ok`, cron_expression: '0 0 * * *' }],
    });
    const monitorVariants = (): Record<string, MonitorDefinition[][]> => ({
      'backup-heartbeat': [[desiredMonitors()[0] as MonitorDefinition], [{ name: 'backup-heartbeat', cron_expression: '0 3 * * *' }], [desiredMonitors()[0] as MonitorDefinition, { name: 'backup-heartbeat', period_seconds: 60 }]],
      'weekly-cleanup': [[desiredMonitors()[1] as MonitorDefinition], [{ name: 'weekly-cleanup', cron_expression: '0 4 * * 1' }]],
      'stray-monitor': [[{ name: 'stray-monitor', period_seconds: 300 }]],
    });

    async function wipe(client: CronbeamClient): Promise<void> {
      for (const job of await unwrap(client.GET('/prog/jobs'))) await unwrap(client.DELETE('/prog/jobs/{job_id}', { params: { path: { job_id: job.job_id } } }));
      for (const monitor of await unwrap(client.GET('/prog/monitors'))) await unwrap(client.DELETE('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: monitor.monitor_id } } }));
    }

    /** The account's definitions, without ids and times, in a stable order: what "the same state" compares. */
    async function snapshot(client: CronbeamClient) {
      const without = (record: object, fields: string[]) => Object.fromEntries(Object.entries(record).filter(([key]) => !fields.includes(key)));
      const jobFields = (job: Job) => without(job, ['job_id', 'status', 'next_run_at', 'last_run_at', 'created_at', 'updated_at']) as JobDefinition;
      const monitorFields = (monitor: Monitor) => without(monitor, ['monitor_id', 'ping_url', 'status', 'last_ping_at', 'last_duration_ms', 'due_at', 'created_at']) as MonitorDefinition;
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      return {
        jobs: (await unwrap(client.GET('/prog/jobs'))).map(jobFields).sort(byName),
        monitors: (await unwrap(client.GET('/prog/monitors'))).map(monitorFields).sort(byName),
      };
    }

    beforeAll(async () => {
      bob = await apiUser(cronbeam, 'pro');
      writeFileSync(desiredFile(), `# jobs and monitors as code\n${JSON.stringify({ jobs: desiredJobs(), monitors: desiredMonitors() }, null, 2)}\n`);
    });

    it('reaches the same state from any starting state with --prune, and a second apply changes nothing', async () => {
      const client = sdkFor(bob);
      const jobChoice = fc.record(Object.fromEntries(Object.entries(jobVariants()).map(([name, variants]) => [name, fc.integer({ min: -1, max: variants.length - 1 })])));
      const monitorChoice = fc.record(Object.fromEntries(Object.entries(monitorVariants()).map(([name, variants]) => [name, fc.integer({ min: -1, max: variants.length - 1 })])));
      let reached: unknown = null;
      await fc.assert(
        fc.asyncProperty(jobChoice, monitorChoice, async (jobs, monitors) => {
          await wipe(client);
          for (const [name, index] of Object.entries(jobs)) if (index >= 0) await unwrap(client.POST('/prog/jobs', { body: jobVariants()[name]?.[index] as JobDefinition }));
          for (const [name, index] of Object.entries(monitors)) for (const body of index >= 0 ? (monitorVariants()[name]?.[index] ?? []) : []) await unwrap(client.POST('/prog/monitors', { body }));
          ok(await as(bob, ['apply', '-f', desiredFile(), '--prune']));
          const state = await snapshot(client);
          reached ??= state;
          expect(state).toEqual(reached);
          const again = JSON.parse(ok(await as(bob, ['apply', '-f', desiredFile(), '--prune', '--json'])));
          expect(again).toEqual({ dry_run: false, applied: false, changes: [], unmanaged: [] });
        }),
        { numRuns: 8, seed: 33 },
      );
      // The state reached is the file's, with the API's defaults for what it leaves out.
      expect(reached).toEqual({
        jobs: [
          expect.objectContaining({ name: 'hourly-report', method: 'GET', headers: {}, body: '', time_zone: 'UTC', response_rules: null, timeout_seconds: null, notify_on_failure: true, delivery: 'at_least_once' }),
          expect.objectContaining({ ...desiredJobs()[0], response_rules: expect.objectContaining({ expected_status: '200', body_contains: 'ok' }) }),
        ],
        monitors: [
          expect.objectContaining({ name: 'backup-heartbeat', period_seconds: 86400, cron_expression: null, time_zone: 'UTC', grace_seconds: 600, channel_ids: null }),
          expect.objectContaining({ name: 'weekly-cleanup', period_seconds: null, cron_expression: '0 4 * * 1', time_zone: 'America/New_York', grace_seconds: 60, channel_ids: null }),
        ],
      });
    });

    it('shows the plan; --dry-run changes nothing; without --prune undeclared items are kept and named', async () => {
      const client = sdkFor(bob);
      await wipe(client);
      await unwrap(client.POST('/prog/jobs', { body: { name: 'hourly-report', url: `${target.url}/ok`, cron_expression: '30 * * * *' } }));
      await unwrap(client.POST('/prog/monitors', { body: { name: 'stray-monitor', period_seconds: 300 } }));
      const before = await snapshot(client);
      const dryRun = ok(await as(bob, ['apply', '-f', desiredFile(), '--dry-run']));
      expect(dryRun.split('\n')).toEqual([
        '  + job nightly-backup',
        '  ~ job hourly-report (cron_expression, notify_on_failure)',
        '  + monitor backup-heartbeat',
        '  + monitor weekly-cleanup',
        'Plan: 3 to create, 1 to update, 0 to delete.',
        '1 not in the file, kept (--prune deletes them): monitor stray-monitor',
        '',
      ]);
      expect(await snapshot(client)).toEqual(before);
      const applied = ok(await as(bob, ['apply', '-f', desiredFile()]));
      expect(applied).toContain('Updated job hourly-report\nCreated job nightly-backup\nCreated monitor backup-heartbeat\nCreated monitor weekly-cleanup\nApplied.\n');
      expect((await snapshot(client)).monitors.map((monitor) => monitor.name)).toEqual(['backup-heartbeat', 'stray-monitor', 'weekly-cleanup']);
      const pruneDryRun = JSON.parse(ok(await as(bob, ['apply', '-f', desiredFile(), '--prune', '--dry-run', '--json'])));
      expect(pruneDryRun).toMatchObject({ dry_run: true, applied: false, changes: [{ action: 'delete', kind: 'monitor', name: 'stray-monitor' }] });
    });

    it('refuses an invalid file before calling the API, naming the entry and field (exit 2)', async () => {
      const bad = join(work, 'bad.yaml');
      writeFileSync(bad, 'jobs:\n  - name: ok-job\n    url: https://example.com\n    cron_expression: "0 2 * * *"\n  - name: broken\n    url: https://example.com\n    cron_expression: "61 * * * *"\n');
      const result = await as(bob, ['apply', '-f', bad]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^cronbeam: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: jobs\\[1\\] \\(broken\\): cron_expression: `));
      writeFileSync(bad, 'jobs: []\nmonitor: []\n');
      expect(await as(bob, ['apply', '-f', bad])).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown top-level key 'monitor'") });
      writeFileSync(bad, 'monitors:\n  - {name: twin, period_seconds: 60}\n  - {name: twin, period_seconds: 90}\n');
      expect(await as(bob, ['apply', '-f', bad])).toMatchObject({ code: 2, stderr: expect.stringContaining("monitor 'twin' is declared twice") });
    });

    it('export writes a file that apply turns back into the same state, leaving out defaults', async () => {
      const client = sdkFor(bob);
      ok(await as(bob, ['apply', '-f', desiredFile(), '--prune']));
      const before = await snapshot(client);
      const exported = join(work, 'exported.yaml');
      ok(await as(bob, ['export', '-o', exported]));
      const text = readFileSync(exported, 'utf8');
      expect(text).toContain('  - name: hourly-report\n');
      expect(text).not.toContain('delivery');
      await wipe(client);
      ok(await as(bob, ['apply', '-f', exported]));
      expect(await snapshot(client)).toEqual(before);
      expect(JSON.parse(ok(await as(bob, ['export', '--json'])))).toEqual(parseYaml(text));
    });
  });

  it('packs into a tarball that installs in an empty folder, and its bin runs', async () => {
    const packDir = join(work, 'pack');
    mkdirSync(join(packDir, 'project'), { recursive: true });
    const env = { HOME: process.env.HOME ?? work, npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? work, '.npm') };
    ok(await runCommand('npm', ['run', 'build'], env, undefined, PACKAGE_DIR));
    const tarball = ok(await runCommand('npm', ['pack', '--pack-destination', packDir], env, undefined, PACKAGE_DIR)).trim().split('\n').pop() as string;
    writeFileSync(join(packDir, 'project', 'package.json'), '{"name":"cli-consumer","private":true}');
    // Without the optional keychain module (a native build): the bin needs nothing else.
    ok(await runCommand('npm', ['install', '--offline', '--omit=optional', '--no-audit', '--no-fund', join(packDir, tarball)], env, undefined, join(packDir, 'project')));
    const bin = join(packDir, 'project', 'node_modules', '.bin', 'cronbeam');
    expect(ok(await runCommand(bin, ['--version'], {}))).toBe('0.1.0\n');
    expect(ok(await runCommand(bin, ['--help'], {}))).toMatch(/^Usage: cronbeam /);
    const jobs = JSON.parse(ok(await runCommand(bin, ['jobs', 'list', '--json'], { ...alice.env, CRONBEAM_CONFIG_DIR: join(packDir, 'config') })));
    expect(jobs).toEqual(await unwrap(sdkFor(alice).GET('/prog/jobs')));
  });
});
