import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describeCron, nextRun, nextRuns, parseCron } from '@cronbeam/shared/cron';
import { JOB_LIMITS, JOB_MESSAGES } from '@cronbeam/shared/jobs/job-rules';
import { HTTP_METHODS } from '@cronbeam/shared/jobs/job-types';
import manifest from '../package.json';
import { countRuns } from '../src/tools/execution-count';
import { BuiltServer, callTool, connectStdio, HttpServerProcess, resultText, type McpConnection } from './support/mcp-harness';

/**
 * What the server does without a Cronbeam account: the tool catalogue, the
 * local cron helpers, every prompt, and the command line. Driven through the
 * SDK's client over stdio against the built bin. The API key points nowhere:
 * none of this may need it.
 */
const run = promisify(execFile);

const JOB_TOOLS = ['list_jobs', 'get_job', 'create_job', 'update_job', 'delete_job', 'pause_job', 'resume_job', 'run_job_now', 'get_job_logs'];
const LOCAL_TOOLS = ['validate_cron', 'explain_cron', 'next_cron_runs'];
const MONITOR_TOOLS = ['list_monitors', 'get_monitor', 'create_monitor', 'update_monitor', 'delete_monitor', 'pause_monitor', 'resume_monitor', 'get_monitor_events'];
const MAINTENANCE_TOOLS = ['list_maintenance_windows', 'create_maintenance_window', 'delete_maintenance_window'];
const ALL_TOOLS = [...JOB_TOOLS, ...MONITOR_TOOLS, ...MAINTENANCE_TOOLS, ...LOCAL_TOOLS, 'find_failing_jobs', 'estimate_executions', 'check_connection'];

describe('MCP server without a backend', () => {
  let bin: BuiltServer;
  let mcp: McpConnection;

  beforeAll(async () => {
    bin = BuiltServer.build();
    mcp = await connectStdio(bin, { CRONBEAM_URL: 'http://127.0.0.1:9', CRONBEAM_API_KEY: 'cb_live_unused' });
  });

  afterAll(async () => {
    await mcp?.close();
    bin?.remove();
  });

  describe('initialize and tool catalogue', () => {
    it('identifies itself with the package version and instructions', () => {
      expect(mcp.client.getServerVersion()).toMatchObject({ name: 'cronbeam', version: manifest.version });
      expect(mcp.client.getInstructions()).toContain('UTC');
      expect(mcp.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    });

    it('lists every tool, each with a title, a description and input and output schemas', async () => {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
      for (const tool of tools) {
        expect(tool.title).toBeTruthy();
        expect(tool.description!.length).toBeGreaterThan(30);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
      }
    });

    it('describes every input in JSON Schema any client takes: no lists of types, whole numbers as integer, every field described', async () => {
      const { tools } = await mcp.client.listTools();
      const problems: string[] = [];
      /** Walks a schema; `number` is allowed only where any number is meant (json_equals' alternatives). */
      const walk = (schema: any, path: string, anyNumber = false): void => {
        if (Array.isArray(schema.type)) problems.push(`${path}: type is a list ${JSON.stringify(schema.type)}`);
        if (schema.type === 'number' && !anyNumber) problems.push(`${path}: number, not integer`);
        for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
          if (!property.description) problems.push(`${path}.${name}: no description`);
          walk(property, `${path}.${name}`, name === 'json_equals');
        }
        for (const [index, option] of (schema.anyOf ?? []).entries()) walk(option, `${path}|${index}`, anyNumber);
        if (schema.items) walk(schema.items, `${path}[]`);
      };
      for (const tool of tools) walk(tool.inputSchema, tool.name);
      expect(problems).toEqual([]);
      const schemaOf = (tool: string) => tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, any>;
      expect(schemaOf('create_monitor').period_seconds.anyOf).toEqual([expect.objectContaining({ type: 'integer' }), { type: 'null' }]);
      expect(schemaOf('update_monitor').grace_seconds.type).toBe('integer');
      expect(schemaOf('next_cron_runs').count.type).toBe('integer');
      const rules = schemaOf('create_job').response_rules.anyOf[0];
      expect(rules.properties.json_equals.anyOf.map((option: { type: string }) => option.type)).toEqual(['string', 'number', 'boolean', 'null']);
    });

    it('annotates reading, destructive and idempotent tools', async () => {
      const { tools } = await mcp.client.listTools();
      const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
      for (const name of ['list_jobs', 'get_job', 'get_job_logs', 'list_monitors', 'get_monitor', 'get_monitor_events', 'find_failing_jobs', 'estimate_executions', 'check_connection', ...LOCAL_TOOLS]) {
        expect(hints[name]).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      }
      expect(hints.delete_job).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      expect(hints.delete_monitor).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      expect(hints.create_monitor).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      expect(hints.update_job).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(hints.create_job).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      expect(hints.pause_job).toMatchObject({ destructiveHint: false, idempotentHint: true });
      expect(hints.resume_job).toMatchObject({ destructiveHint: false, idempotentHint: true });
      expect(hints.run_job_now).toMatchObject({ idempotentHint: false, openWorldHint: true });
    });

    it("derives create_job's input schema from the shared job rules", async () => {
      const { tools } = await mcp.client.listTools();
      const create = tools.find((t) => t.name === 'create_job')!;
      const props = create.inputSchema.properties as Record<string, any>;
      // The schedule is one of cron_expression, every_seconds and run_at: the API says when none or two are given.
      expect(create.inputSchema.required).toEqual(['name', 'url']);
      expect(create.inputSchema.additionalProperties).toBe(false);
      expect(props.name).toMatchObject({ type: 'string', maxLength: JOB_LIMITS.nameMaxLength, pattern: '^[A-Za-z0-9_-]+$' });
      expect(props.url).toMatchObject({ type: 'string', maxLength: JOB_LIMITS.urlMaxLength });
      expect(props.method.enum).toEqual([...HTTP_METHODS]);
      expect(props.cron_expression.type).toBe('string');
      expect(props.cron_expression.description).toContain('UTC');
      expect(props.notify_on_failure).toMatchObject({ type: 'boolean', default: false });
      expect(Object.keys(props).sort()).toEqual(['auto_pause_after', 'body', 'callback_url', 'catch_up', 'catch_up_window_seconds', 'cron_expression', 'ends_at', 'every_seconds', 'headers', 'jitter_seconds', 'method', 'name', 'notify_on_failure', 'overlap', 'response_rules', 'run_at', 'starts_at', 'tags', 'time_zone', 'timeout_seconds', 'url']);
      expect(props.timeout_seconds).toMatchObject({ default: null });
      expect(props.auto_pause_after).toMatchObject({ default: null });
      expect(JSON.stringify(props.response_rules)).toContain('expected_status');
    });

    it('makes every update_job field optional except the job', async () => {
      const { tools } = await mcp.client.listTools();
      const update = tools.find((t) => t.name === 'update_job')!;
      expect(update.inputSchema.required).toEqual(['job']);
      const props = update.inputSchema.properties as Record<string, any>;
      expect(Object.keys(props).sort()).toEqual(['auto_pause_after', 'body', 'callback_url', 'catch_up', 'catch_up_window_seconds', 'cron_expression', 'ends_at', 'every_seconds', 'headers', 'jitter_seconds', 'job', 'method', 'name', 'notify_on_failure', 'overlap', 'response_rules', 'run_at', 'starts_at', 'tags', 'time_zone', 'timeout_seconds', 'url']);
      // No defaults: an omitted field keeps the job's current value instead of being reset.
      for (const field of ['method', 'headers', 'body', 'notify_on_failure', 'response_rules', 'timeout_seconds', 'auto_pause_after', 'every_seconds', 'jitter_seconds', 'overlap', 'catch_up']) expect(props[field].default).toBeUndefined();
    });

    it('refuses invalid job arguments locally with the shared rules\' messages, before any API call', async () => {
      const bad = await callTool(mcp.client, 'create_job', { name: 'has space', url: 'ftp://example.com', cron_expression: '61 * * * *' });
      expect(bad.isError).toBe(true);
      const text = resultText(bad);
      expect(text).toContain(JOB_MESSAGES.namePattern);
      expect(text).toContain(JOB_MESSAGES.urlScheme);
      expect(text).toContain('Minute must be between 0 and 59');
      expect(text).not.toContain('Cannot reach');

      const unknown = await callTool(mcp.client, 'create_job', { name: 'ok', url: 'https://example.com', cron_expression: '* * * * *', retries: 3 });
      expect(unknown.isError).toBe(true);
      expect(resultText(unknown)).toContain('retries');

      const header = await callTool(mcp.client, 'create_job', { name: 'ok', url: 'https://example.com', cron_expression: '* * * * *', headers: { Host: 'evil' } });
      expect(resultText(header)).toContain(JOB_MESSAGES.headerForbidden('Host'));

      const method = await callTool(mcp.client, 'update_job', { job: 'x', method: 'FETCH' });
      expect(resultText(method)).toContain(JOB_MESSAGES.method);
    });

    it('reports an unreachable backend as a tool error naming the URL', async () => {
      const result = await callTool(mcp.client, 'list_jobs');
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain('Cannot reach Cronbeam at http://127.0.0.1:9');
      expect(resultText(result)).toContain('CRONBEAM_URL');
      expect(JSON.parse(resultText(result).split('\n\n')[1])).toMatchObject({ error: { kind: 'unreachable' } });
    });

    it('still lists resources when the backend is unreachable, and reading one says why', async () => {
      const { resources } = await mcp.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['cronbeam://jobs']);
      await expect(mcp.client.readResource({ uri: 'cronbeam://jobs' })).rejects.toThrow(/Cannot reach Cronbeam at http:\/\/127\.0\.0\.1:9/);
    });
  });

  describe('cron helpers (shared cron code, no API key needed)', () => {
    it.each([
      ['*/15 * * * *', '*/15 * * * *'],
      ['0   9 * *   MON-FRI', '0 9 * * 1-5'],
      ['30 2 1 JAN *', '30 2 1 1 *'],
    ])('validate_cron accepts %j and normalizes it', async (expression, normalized) => {
      const result = await callTool(mcp.client, 'validate_cron', { cron_expression: expression });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ valid: true, error: null, normalized });
    });

    it.each([
      ['* * * *', 'Cron expression must have 5 fields'],
      ['0 24 * * *', 'Hour must be between 0 and 23'],
      ['0 0 * * 7', 'Day of week must be between 0 and 6'],
      ['0 0 30 2 *', 'Cron expression never runs: no selected month has that day'],
      ['', 'Cron expression is required'],
      ['0 0 L * *', "Day of month has an invalid value 'L' (use 1-31)"],
    ])('validate_cron refuses %j with the API message', async (expression, message) => {
      const result = await callTool(mcp.client, 'validate_cron', { cron_expression: expression });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ valid: false, error: message, normalized: null });
      expect(parseCron(expression)).toEqual({ ok: false, error: message });
    });

    it.each([
      ['0 9 * * 1-5', 'At 09:00, Monday through Friday'],
      ['*/15 * * * *', 'Every 15 minutes'],
      ['0 0 1 * *', 'At 00:00, on day 1 of the month'],
    ])('explain_cron describes %j and lists its next 5 runs', async (expression, description) => {
      const result = await callTool(mcp.client, 'explain_cron', { cron_expression: expression });
      const data = result.structuredContent as { description: string; next_runs: string[]; valid: boolean };
      expect(data.valid).toBe(true);
      expect(data.description).toBe(describeCron(expression));
      expect(data.description).toBe(description);
      expect(data.next_runs).toHaveLength(5);
      for (const run of data.next_runs) expect(Date.parse(run)).toBeGreaterThan(Date.now() - 60_000);
      expect(resultText(result)).toContain(description);
    });

    it('explain_cron explains an invalid expression with its error', async () => {
      const result = await callTool(mcp.client, 'explain_cron', { cron_expression: '0 0 31 4 *' });
      expect(result.structuredContent).toMatchObject({ valid: false, error: 'Cron expression never runs: no selected month has that day', next_runs: [] });
    });

    it('next_cron_runs lists known instants after a given time', async () => {
      const result = await callTool(mcp.client, 'next_cron_runs', { cron_expression: '0 9 * * 1-5', count: 3, from: '2026-01-02T10:00:00Z' });
      // 2 January 2026 is a Friday: the next weekday mornings are Monday to Wednesday.
      expect(result.structuredContent).toEqual({
        cron_expression: '0 9 * * 1-5',
        from: '2026-01-02T10:00:00.000Z',
        runs: ['2026-01-05T09:00:00.000Z', '2026-01-06T09:00:00.000Z', '2026-01-07T09:00:00.000Z'],
        count: 3,
      });
    });

    it('next_cron_runs applies the standard day rule (day of month OR day of week)', async () => {
      const result = await callTool(mcp.client, 'next_cron_runs', { cron_expression: '0 12 13 * 5', count: 4, from: '2026-02-01T00:00:00Z' });
      expect((result.structuredContent as { runs: string[] }).runs).toEqual(nextRuns('0 12 13 * 5', 4, new Date('2026-02-01T00:00:00Z')).map((d) => d.toISOString()));
      expect((result.structuredContent as { runs: string[] }).runs).toEqual(['2026-02-06T12:00:00.000Z', '2026-02-13T12:00:00.000Z', '2026-02-20T12:00:00.000Z', '2026-02-27T12:00:00.000Z']);
    });

    it('next_cron_runs stops at until and defaults to 5 runs', async () => {
      const until = await callTool(mcp.client, 'next_cron_runs', { cron_expression: '0 * * * *', count: 100, from: '2026-03-01T00:00:00Z', until: '2026-03-01T03:00:00Z' });
      expect((until.structuredContent as { runs: string[] }).runs).toEqual(['2026-03-01T01:00:00.000Z', '2026-03-01T02:00:00.000Z', '2026-03-01T03:00:00.000Z']);
      const defaults = await callTool(mcp.client, 'next_cron_runs', { cron_expression: '* * * * *' });
      expect((defaults.structuredContent as { count: number }).count).toBe(5);
    });

    it('next_cron_runs refuses an invalid expression, a count over 100 and a malformed date', async () => {
      const invalid = await callTool(mcp.client, 'next_cron_runs', { cron_expression: '0 0 * 13 *' });
      expect(invalid.isError).toBe(true);
      expect(resultText(invalid)).toContain('Month must be between 1 and 12');
      const tooMany = await callTool(mcp.client, 'next_cron_runs', { cron_expression: '* * * * *', count: 101 });
      expect(tooMany.isError).toBe(true);
      expect(resultText(tooMany)).toContain('count');
      const badDate = await callTool(mcp.client, 'next_cron_runs', { cron_expression: '* * * * *', from: 'yesterday' });
      expect(resultText(badDate)).toContain('from must be an ISO 8601 date-time');
    });
  });

  describe('execution counting (estimate_executions)', () => {
    it.each([
      ['* * * * *', 1],
      ['*/7 3-5 * * *', 10],
      ['0 9 * * 1-5', 30],
      ['0 12 13 * 5', 60],
      ['15 0 1,15 * *', 60],
      ['0 0 * 2 0', 400],
      ['5 4 */2 * MON', 60],
    ])('agrees with the scheduler engine for %j over %i days', (expression, days) => {
      const parsed = parseCron(expression);
      if (!parsed.ok) throw new Error(parsed.error);
      // Odd instants, so the first and last days are partial.
      const from = new Date('2026-02-10T13:37:00Z');
      const until = new Date(from.getTime() + days * 86_400_000);
      let listed = 0;
      for (let at = nextRun(expression, from); at && at <= until; at = nextRun(expression, at)) listed += 1;
      expect(listed).toBeGreaterThan(0);
      expect(countRuns(parsed.cron, from, until)).toBe(listed);
    });

    it('counts an every-minute month quickly', () => {
      const parsed = parseCron('* * * * *');
      if (!parsed.ok) throw new Error(parsed.error);
      const started = Date.now();
      expect(countRuns(parsed.cron, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-31T23:59:59Z'))).toBe(31 * 1440 - 1);
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });

  describe('command line', () => {
    it('packs into a public, MIT-licensed tarball that installs in an empty folder and answers an MCP client', async () => {
      const work = mkdtempSync(join(tmpdir(), 'cronbeam-mcp-pack-'));
      try {
        const packageDir = join(__dirname, '..');
        await run('npm', ['run', 'build'], { cwd: packageDir });
        const [packed] = JSON.parse((await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: packageDir })).stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
        expect(packed!.files.map((file) => file.path).sort()).toEqual(['LICENSE', 'README.md', 'dist/cronbeam-mcp.js', 'package.json']);
        expect(manifest).toMatchObject({ license: 'MIT', publishConfig: { access: 'public' } });
        const project = join(work, 'project');
        mkdirSync(project);
        writeFileSync(join(project, 'package.json'), '{"name":"mcp-consumer","private":true}');
        await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed!.filename)], { cwd: project });
        const client = new Client({ name: 'pack-test', version: '1' });
        await client.connect(new StdioClientTransport({ command: join(project, 'node_modules', '.bin', 'cronbeam-mcp'), env: { PATH: process.env.PATH ?? '', CRONBEAM_URL: 'http://127.0.0.1:9', CRONBEAM_API_KEY: 'cb_live_unused' }, stderr: 'pipe' }));
        try {
          expect(client.getServerVersion()).toMatchObject({ name: 'cronbeam', version: manifest.version });
          expect((await client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
        } finally {
          await client.close();
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    });

    it('prints usage with --help and the version with --version', async () => {
      const help = await run(process.execPath, [bin.binPath, '--help']);
      expect(help.stdout).toContain('--http PORT');
      expect(help.stdout).toContain('CRONBEAM_API_KEY');
      const version = await run(process.execPath, [bin.binPath, '--version']);
      expect(version.stdout.trim()).toBe(manifest.version);
    });

    it.each([[['--http', 'abc']], [['--http']], [['--bogus']]])('refuses %j with exit code 2 and a message', async (args) => {
      await expect(run(process.execPath, [bin.binPath, ...args])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('cronbeam-mcp:') });
    });

    it('starts without an API key and says on stderr what is missing', async () => {
      const bare = await connectStdio(bin, { CRONBEAM_URL: 'http://127.0.0.1:9' });
      try {
        const result = await callTool(bare.client, 'list_jobs');
        expect(result.isError).toBe(true);
        expect(resultText(result)).toContain('CRONBEAM_API_KEY is not set');
        expect(JSON.parse(resultText(result).split('\n\n')[1])).toMatchObject({ error: { kind: 'configuration' } });
        // Local helpers keep working.
        expect((await callTool(bare.client, 'validate_cron', { cron_expression: '* * * * *' })).isError).toBeFalsy();
        expect(bare.stderr()).toContain('CRONBEAM_API_KEY is not set');
      } finally {
        await bare.close();
      }
    });

    it('reports a malformed CRONBEAM_URL and CRONBEAM_TIMEOUT_MS as tool errors', async () => {
      const bad = await connectStdio(bin, { CRONBEAM_URL: 'ftp://cronbeam', CRONBEAM_API_KEY: 'cb_live_x', CRONBEAM_TIMEOUT_MS: 'soon' });
      try {
        const result = await callTool(bad.client, 'list_jobs');
        expect(result.isError).toBe(true);
        expect(resultText(result)).toContain("CRONBEAM_URL 'ftp://cronbeam' is not an http:// or https:// URL");
        expect(resultText(result)).toContain("CRONBEAM_TIMEOUT_MS 'soon'");
        // The unauthenticated ping is stopped by the URL alone.
        const check = await callTool(bad.client, 'check_connection');
        expect(resultText(check)).toContain("CRONBEAM_URL 'ftp://cronbeam'");
        expect(resultText(check)).not.toContain('CRONBEAM_TIMEOUT_MS');
      } finally {
        await bad.close();
      }
    });

    it('refuses browser requests from other sites: Origin must be this machine or one given with --allow-origin', async () => {
      const server = await HttpServerProcess.start(bin, { CRONBEAM_URL: 'http://127.0.0.1:9', CRONBEAM_API_KEY: 'cb_live_x' }, ['--http', '0', '--allow-origin', 'https://assistant.example']);
      try {
        const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
        // node:http, as a browser does, sends the Origin header as given.
        const statusFrom = (origin?: string) =>
          new Promise<{ status: number; body: string }>((done, fail) => {
            const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(origin === undefined ? {} : { origin }) };
            const req = request(server.url, { method: 'POST', headers }, (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
              res.on('end', () => done({ status: res.statusCode ?? 0, body }));
            });
            req.on('error', fail);
            req.end(initialize);
          });
        expect((await statusFrom()).status).toBe(200);
        expect((await statusFrom('http://localhost:6274')).status).toBe(200);
        expect((await statusFrom('http://127.0.0.1:5173')).status).toBe(200);
        expect((await statusFrom('https://assistant.example')).status).toBe(200);
        const foreign = await statusFrom('https://attacker.example');
        expect(foreign.status).toBe(403);
        expect(JSON.parse(foreign.body).error.message).toBe('Origin not allowed: https://attacker.example (start the server with --allow-origin https://attacker.example to allow it)');
        expect((await statusFrom('null')).status).toBe(403);
        expect((await statusFrom('http://localhost.attacker.example')).status).toBe(403);
      } finally {
        await server.stop();
      }
      const refused = await run(process.execPath, [bin.binPath, '--http', '0', '--allow-origin', 'https://assistant.example/path']).catch((error: { code: number; stderr: string }) => error);
      expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining("--allow-origin needs an origin such as https://assistant.example (got 'https://assistant.example/path')") });
    });

    it('serves Streamable HTTP only to loopback Host headers', async () => {
      const server = await HttpServerProcess.start(bin, { CRONBEAM_URL: 'http://127.0.0.1:9', CRONBEAM_API_KEY: 'cb_live_x' });
      try {
        const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
        const post = (headers: Record<string, string>, body: unknown = initialize) =>
          fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
        // fetch cannot set Host; node:http can, as a DNS-rebinding page's browser effectively does.
        const rebound = await new Promise<number>((done, fail) => {
          const req = request(server.url, { method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json' } }, (res) => {
            res.resume();
            done(res.statusCode ?? 0);
          });
          req.on('error', fail);
          req.end(JSON.stringify(initialize));
        });
        expect(rebound).toBe(403);
        const noSession = await post({}, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
        expect(noSession.status).toBe(400);
        const unknownSession = await post({ 'mcp-session-id': 'nope' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
        expect(unknownSession.status).toBe(404);
        const notJson = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
        expect(notJson.status).toBe(400);
        expect((await fetch(server.url.replace('/mcp', '/other'))).status).toBe(404);
        const ok = await post({});
        expect(ok.status).toBe(200);
        expect(ok.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
      } finally {
        await server.stop();
      }
    });
  });
});
