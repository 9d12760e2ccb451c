import { DASHBOARD_OPERATIONS } from '../../backend/src/modules/prog/dashboard-operations';
import { routeFacts } from '../../backend/src/modules/prog/openapi-routes';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import type { RequestOptions } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';

type Schema = {
  type?: string;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  required?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  $ref?: string;
};
type Operation = { summary?: string; security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
type Documented = { document: 'prog' | 'api'; method: string; path: string; operation: Operation };

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/** What a job definition field needs beside it to be valid at all. */
const JOB_FIELD_COMPANIONS: Record<string, Record<string, unknown>> = {
  every_seconds: { cron_expression: null },
  catch_up_window_seconds: { catch_up: 'all_within' },
};

/**
 * What the two OpenAPI documents promise, checked against the running
 * server: who needs credentials, which bodies are read, which statuses come
 * back, and the limits the server enforces.
 */
describe('OpenAPI documents keep their promises', () => {
  let server: TestServer;
  let user: SignedInAccount;
  let apiKey: string;
  const docs = {} as Record<'prog' | 'api', Document>;
  const operations: Documented[] = [];

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, EXECUTION_TIMEOUT_MS: '10000' });
    user = await signUpAndLogin(server);
    await setPlan(server, user.userId, 'unlimited');
    apiKey = (await server.http.post('/api/api-keys/generate', { name: 'contract' }, { token: user.accessToken })).body.api_key;
    docs.prog = (await server.http.get('/prog/openapi.json')).body;
    docs.api = (await server.http.get('/api/openapi.json')).body;
    for (const document of ['prog', 'api'] as const) {
      for (const [path, ops] of Object.entries(docs[document].paths)) {
        for (const [method, operation] of Object.entries(ops)) operations.push({ document, method, path, operation });
      }
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  const urlOf = ({ path }: Documented) => path.replace(/\{[^}]+\}/g, NO_SUCH_ID);
  const credentials = ({ document, path }: Documented): RequestOptions =>
    document === 'prog'
      ? { headers: { 'X-API-Key': apiKey, 'X-User-ID': user.userId } }
      : path.startsWith('/api/admin/')
        ? { headers: { 'x-admin-token': TEST_ADMIN_TOKEN } }
        : { token: user.accessToken };
  const label = ({ method, path }: Documented) => `${method.toUpperCase()} ${path}`;

  it('describes every /api route (summary, refusals) and nothing that is not routed', () => {
    const documented = operations.filter((op) => op.document === 'api').map((op) => `${op.method} ${op.path}`);
    expect(Object.keys(DASHBOARD_OPERATIONS).sort()).toEqual(documented.sort());
    expect(operations.filter((op) => !op.operation.summary).map(label)).toEqual([]);
  });

  it('marks the public operations public, and every other one answers 401 without credentials', async () => {
    const publicOps = operations.filter((op) => op.operation.security?.length === 0).map(label);
    for (const expected of ['POST /api/auth/login', 'POST /api/auth/signup', 'GET /api/ping', 'GET /prog/ping', 'POST /api/site/contact', 'POST /api/stripe/webhook', 'GET /ping/{token}']) {
      expect(publicOps).toContain(expected);
    }
    const wrong: string[] = [];
    for (const op of operations) {
      const isPublic = op.operation.security?.length === 0;
      const res = await server.http.request(op.method.toUpperCase(), urlOf(op), { body: op.operation.requestBody ? {} : undefined });
      // Billing's guard runs before authentication: on a server without billing its 503 comes first.
      if (res.status === 503 && '503' in op.operation.responses) continue;
      const refusedAsAnonymous = res.status === 401 && /Authentication required|Invalid API key|admin token|API key/i.test(JSON.stringify(res.body));
      if (isPublic === refusedAsAnonymous) wrong.push(`${label(op)}: ${isPublic ? 'public' : 'secured'} but answered ${res.status} ${res.text.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('documents every status a refused request gets: no credentials, an unknown id, a body of the wrong type (property over all operations)', async () => {
    const undocumented: string[] = [];
    const check = (op: Documented, how: string, status: number, text: string) => {
      if (!(String(status) in op.operation.responses)) undocumented.push(`${label(op)} ${how}: ${status} ${text.slice(0, 100)}`);
    };
    for (const op of operations) {
      const anonymous = await server.http.request(op.method.toUpperCase(), urlOf(op), { body: op.operation.requestBody ? {} : undefined });
      check(op, 'without credentials', anonymous.status, anonymous.text);
      // Only requests that cannot change anything: an id nobody has, or a body the schema refuses.
      if (!op.path.includes('{') && !op.operation.requestBody) continue;
      const refused = await server.http.request(op.method.toUpperCase(), urlOf(op), { ...credentials(op), body: op.operation.requestBody ? [] : undefined });
      check(op, 'with credentials', refused.status, refused.text);
    }
    expect(undocumented).toEqual([]);
  });

  it('declares the body of every route whose body the server validates', () => {
    const facts = routeFacts(server.app);
    const missing = operations.filter((op) => facts.get(`${op.method} ${op.path}`)?.body && !op.operation.requestBody).map(label);
    expect(missing).toEqual([]);
    for (const route of ['post /api/api-keys/generate', 'post /api/deploy/n8n', 'post /api/auth/login', 'post /api/auth/reset-password', 'patch /api/auth/profile']) {
      const [method, path] = route.split(' ');
      expect({ route, body: Boolean(docs.api.paths[path]![method]!.requestBody) }).toEqual({ route, body: true });
    }
  });

  it('is valid OpenAPI 3.0 where validators are lenient: no nullable without a type', () => {
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Schema;
      if (schema.nullable !== undefined && schema.type === undefined) untyped.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(docs.prog, 'prog');
    walk(docs.api, 'api');
    expect(untyped).toEqual([]);
  });

  it('types ValidationError.loc as names and list indexes, as a bulk refusal answers it', async () => {
    for (const document of Object.values(docs)) {
      const loc = document.components.schemas.ValidationError!.properties!.detail!.items!.properties!.loc!;
      expect(loc.items!.anyOf!.map((s) => s.type).sort()).toEqual(['integer', 'string']);
    }
    const res = await server.http.post('/api/jobs/bulk', { jobs: [jobDefinition(), jobDefinition({ url: 'not a url' })] }, { token: user.accessToken });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'jobs', 1, 'url']);
  });

  it('says a monitor has exactly one of period_seconds and cron_expression, as the server refuses both and neither', async () => {
    const monitor = docs.prog.components.schemas.MonitorDefinition!;
    expect(monitor.oneOf!.map((branch) => [branch.required, branch.properties])).toEqual([
      [['period_seconds'], { period_seconds: { type: 'integer', nullable: false } }],
      [['cron_expression'], { cron_expression: { type: 'string', nullable: false } }],
    ]);
    const create = (body: object) => server.http.post('/api/monitors', { name: 'contract', ...body }, { token: user.accessToken });
    expect((await create({ period_seconds: 60, cron_expression: '* * * * *' })).status).toBe(422);
    expect((await create({})).status).toBe(422);
    expect((await create({ period_seconds: 60, cron_expression: null })).status).toBe(200);
  });

  it.each([
    // A field that goes with others (one schedule form; a catch-up window with all_within) is sent with them.
    ['JobDefinition', '/api/jobs', (field: string, value: unknown) => jobDefinition({ ...JOB_FIELD_COMPANIONS[field], [field]: value })],
    ['MonitorDefinition', '/api/monitors', (field: string, value: unknown) => ({ name: 'limits', period_seconds: 60, [field]: value })],
  ])('documents the numeric limits of %s that the server enforces: each bound accepted, one past it refused', async (schemaName, path, body) => {
    const properties = docs.prog.components.schemas[schemaName]!.properties!;
    expect(docs.api.components.schemas[schemaName]!.properties).toEqual(properties);
    const answers: string[] = [];
    for (const [field, schema] of Object.entries(properties)) {
      const bounds: Array<[number, number]> = [];
      if (schema.type === 'integer' && schema.maximum !== undefined) bounds.push([schema.maximum, schema.maximum + 1]);
      if (schema.type === 'integer' && schema.minimum !== undefined) bounds.push([schema.minimum, schema.minimum - 1]);
      for (const [inside, outside] of bounds) {
        const accepted = await server.http.post(path, body(field, inside), { token: user.accessToken });
        const refused = await server.http.post(path, body(field, outside), { token: user.accessToken });
        answers.push(`${field} ${inside}: ${accepted.status}, ${outside}: ${refused.status}`);
        expect({ field, inside: accepted.status, outside: refused.status }).toEqual({ field, inside: 200, outside: 422 });
      }
    }
    expect(answers.length).toBeGreaterThanOrEqual(3);
    // The request time limit is this server's (EXECUTION_TIMEOUT_MS=10000), not the shared rules' cap.
    if (schemaName === 'JobDefinition') expect(properties.timeout_seconds!.maximum).toBe(10);
  });
});
