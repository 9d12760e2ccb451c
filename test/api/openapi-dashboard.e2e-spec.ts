import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';

jest.setTimeout(60_000);

type Document = { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[]; $ref?: string } }> } }>> };
/**
 * Every route the running app's router has under /api (the document's own route left out), as "method /path/{param}".
 * HEAD is left out: the router answers it for every GET route.
 */
function routerApiRoutes(server: TestServer): string[] {
  const routes = server.routes
    .filter((route) => route.url.startsWith('/api/') && route.url !== '/api/openapi.json')
    .flatMap((route) => route.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`));
  return [...new Set(routes)];
}

describe('OpenAPI document of /api', () => {
  let server: TestServer;
  let doc: Document;

  beforeAll(async () => {
    server = await startTestServer();
    const res = await server.http.get('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('validates as OpenAPI 3', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const result = spawnSync(process.execPath, [path.join(__dirname, 'openapi-validate.mjs')], { input: JSON.stringify(doc), encoding: 'utf8' });
    expect(result.stdout.trim()).toBe('valid');
  });

  it('documents exactly the routes the router has under /api', () => {
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((method) => `${method} ${p}`));
    const routed = routerApiRoutes(server);
    expect(routed.length).toBeGreaterThan(20);
    expect(documented.sort()).toEqual(routed.sort());
  });

  it('names sign-up’s required fields, and the job bodies by the shared schema', () => {
    const signup = doc.paths['/api/auth/signup']!.post!.requestBody!.content['application/json']!.schema;
    expect([...(signup.required ?? [])].sort()).toEqual(['email', 'name', 'password']);
    expect(doc.paths['/api/jobs']!.post!.requestBody!.content['application/json']!.schema.$ref).toBe('#/components/schemas/JobDefinition');
  });
});
