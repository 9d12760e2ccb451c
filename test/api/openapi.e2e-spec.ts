import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { jobDefinitionSchema } from '@cronbeam/shared/jobs/job-rules';
import { monitorSchema } from '@cronbeam/shared/notifications/monitors';
import { signUpAndLogin } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, plantRuns } from './jobs-fixtures';

jest.setTimeout(60_000);

type Operation = { requestBody?: { content: Record<string, { examples?: object }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> } };

const PROG_ROUTES = [
  'get /prog/ping',
  'post /prog/jobs',
  'post /prog/jobs/bulk',
  'post /prog/jobs/schedule-preview',
  'post /prog/jobs/bulk-action',
  'get /prog/jobs',
  'get /prog/jobs/{job_id}',
  'put /prog/jobs/{job_id}',
  'delete /prog/jobs/{job_id}',
  'post /prog/jobs/{job_id}/pause',
  'post /prog/jobs/{job_id}/resume',
  'get /prog/jobs/{job_id}/logs',
  'get /prog/jobs/{job_id}/callback-deliveries',
  'post /prog/jobs/{job_id}/run',
  'post /prog/jobs/{job_id}/signing-secret',
  'post /prog/jobs/{job_id}/clone',
  'get /prog/jobs/export',
  'post /prog/jobs/import',
  'get /prog/monitors',
  'post /prog/monitors',
  'post /prog/monitors/bulk-action',
  'get /prog/monitors/{monitor_id}',
  'put /prog/monitors/{monitor_id}',
  'delete /prog/monitors/{monitor_id}',
  'post /prog/monitors/{monitor_id}/pause',
  'post /prog/monitors/{monitor_id}/resume',
  'get /prog/monitors/{monitor_id}/events',
  'get /prog/status-pages',
  'post /prog/status-pages',
  'get /prog/status-pages/{page_id}',
  'put /prog/status-pages/{page_id}',
  'delete /prog/status-pages/{page_id}',
  'get /prog/status-pages/{page_id}/incidents',
  'put /prog/status-pages/{page_id}/incidents/note',
  'get /prog/status-badges',
  'post /prog/status-badges',
  'post /prog/status-badges/{badge_id}/rotate',
  'delete /prog/status-badges/{badge_id}',
  'get /prog/maintenance-windows',
  'post /prog/maintenance-windows',
  'get /prog/maintenance-windows/{window_id}',
  'put /prog/maintenance-windows/{window_id}',
  'delete /prog/maintenance-windows/{window_id}',
  'get /prog/audit',
];

/** The public ping URLs of monitors (no key), documented in the same document. */
const PING_ROUTES = ['/ping/{token}', '/ping/{token}/fail', '/ping/{token}/start'].flatMap((path) => [`get ${path}`, `post ${path}`]);

/**
 * Every route the running app's router has under /prog and /ping, as "method /path/{param}" (documentation routes left out).
 * The ping routes take any method (GET and POST are pings, HEAD as GET, others 405), so an any-method route stands for GET and POST.
 * The ping controller's `:token/:kind` route serves the kinds /fail and /start only (others 404).
 * HEAD is left out: the router answers it for every GET route.
 */
function routerProgRoutes(server: TestServer): string[] {
  return server.routes
    .filter((route) => /^\/(prog|ping)\//.test(route.url) && !route.url.startsWith('/prog/docs') && !route.url.startsWith('/prog/openapi'))
    .flatMap((route) => {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const paths = path === '/ping/{token}/{kind}' ? ['/ping/{token}/fail', '/ping/{token}/start'] : [path];
      const methods = route.methods.map((m) => m.toLowerCase()).filter((m) => m !== 'head');
      const anyMethod = ['get', 'post', 'put', 'delete', 'patch'].every((m) => methods.includes(m));
      if (anyMethod) return paths.flatMap((p) => [`get ${p}`, `post ${p}`]);
      return paths.flatMap((p) => methods.map((m) => `${m} ${p}`));
    });
}

describe('OpenAPI document of /prog', () => {
  let server: TestServer;
  let doc: Document;

  beforeAll(async () => {
    server = await startTestServer();
    const res = await server.http.get('/prog/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('validates as OpenAPI 3', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    const result = spawnSync(process.execPath, [path.join(__dirname, 'openapi-validate.mjs')], { input: JSON.stringify(doc), encoding: 'utf8' });
    expect(result.stdout.trim()).toBe('valid');
    expect(result.status).toBe(0);
  });

  it('lists every /prog route and the ping URLs, and nothing else', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual([...PROG_ROUTES, ...PING_ROUTES].sort());
  });

  it('documents the ping URLs as public: no key, 200, 404 and 429', () => {
    for (const route of PING_ROUTES) {
      const [method, path] = route.split(' ');
      const op = doc.paths[path][method] as Operation & { security?: unknown[] };
      expect({ route, security: op.security, statuses: Object.keys(op.responses).sort() }).toEqual({ route, security: [], statuses: ['200', '404', '429'] });
    }
  });

  it('documents every route the router has under /prog and /ping (the running app, not a hand list)', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    const routed = [...new Set(routerProgRoutes(server))];
    expect(routed.length).toBeGreaterThanOrEqual(PROG_ROUTES.length + PING_ROUTES.length);
    expect(routed.sort()).toEqual(documented.sort());
  });

  it('names the bearer scheme an API key, not a JWT', () => {
    const schemes = (doc as unknown as { components: { securitySchemes: Record<string, { bearerFormat?: string }> } }).components.securitySchemes;
    expect(schemes.BearerApiKey.bearerFormat).toBe('API key');
  });

  it('documents only routes the server really has', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const route of PROG_ROUTES) {
      const [method, path] = route.split(' ');
      const res = await server.http.request(method.toUpperCase(), path.replace('{job_id}', id).replace('{monitor_id}', id));
      // Unauthenticated calls reach the guard (401); a missing route would answer 404.
      expect({ route, status: [200, 401].includes(res.status) }).toEqual({ route, status: true });
    }
    for (const route of PING_ROUTES) {
      const [method, path] = route.split(' ');
      const res = await server.http.request(method.toUpperCase(), path.replace('{token}', 'no-such-token-00000'));
      // The route exists and looked the token up: the unknown-monitor answer, not the router's.
      expect({ route, status: res.status, body: res.body }).toEqual({ route, status: 404, body: { detail: 'Unknown ping URL' } });
    }
  });

  it('gives every operation response examples, and request examples where there is a body', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const examples = Object.values(op.responses).filter((r) => r.content?.['application/json']?.example !== undefined);
        expect({ route: `${method} ${path}`, hasExample: examples.length > 0 }).toEqual({ route: `${method} ${path}`, hasExample: true });
        if (op.requestBody) expect(Object.keys(op.requestBody.content['application/json'].examples ?? {})).not.toHaveLength(0);
      }
    }
  });

  it('matches the shared validation rules and the live answers (no drift)', async () => {
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.JobDefinition.properties).sort()).toEqual(Object.keys(jobDefinitionSchema.shape).sort());
    // The schedule is one of cron_expression, every_seconds and run_at: none of them is required alone.
    expect([...(schemas.JobDefinition.required ?? [])].sort()).toEqual(['name', 'url']);

    const user = await signUpAndLogin(server);
    const key = (await server.http.post('/api/api-keys/generate', { name: 'docs' }, { token: user.accessToken })).body.api_key;
    const job = (await server.http.post('/prog/jobs', jobDefinition(), { token: key })).body;
    expect(Object.keys(schemas.Job.properties).sort()).toEqual(Object.keys(job).sort());
    await plantRuns(server, job.job_id, user.userId, [{ executedAt: '2026-01-01T00:00:00Z' }]);
    const logs = (await server.http.get(`/prog/jobs/${job.job_id}/logs`, { token: key })).body;
    expect(Object.keys(schemas.JobLogsResponse.properties)).toEqual(Object.keys(logs));
    expect(Object.keys(schemas.JobLogEntry.properties).sort()).toEqual(Object.keys(logs.logs[0]).sort());
  });

  it('documents monitors from the shared rules, matching the live answers', async () => {
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.MonitorDefinition.properties).sort()).toEqual(Object.keys(monitorSchema.shape).sort());
    expect(schemas.MonitorDefinition.required).toEqual(['name']);
    const user = await signUpAndLogin(server);
    const key = (await server.http.post('/api/api-keys/generate', { name: 'docs' }, { token: user.accessToken })).body.api_key;
    const monitor = (await server.http.post('/prog/monitors', { name: 'docs', period_seconds: 60 }, { token: key })).body;
    expect(Object.keys(schemas.Monitor.properties).sort()).toEqual(Object.keys(monitor).sort());
    await server.http.get(new URL(monitor.ping_url).pathname);
    const events = (await server.http.get(`/prog/monitors/${monitor.monitor_id}/events`, { token: key })).body;
    const eventSchema = (schemas.MonitorEvents.properties.events as { items: { properties: object } }).items;
    expect(Object.keys(eventSchema.properties).sort()).toEqual(Object.keys(events.events[0]).sort());
  });

  it('serves the interactive reference at /prog/docs', async () => {
    const res = await server.http.get('/prog/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('Cronbeam API reference');
  });
});
