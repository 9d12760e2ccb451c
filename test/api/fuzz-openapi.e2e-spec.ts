import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import fc from 'fast-check';
import { FlyMachinesFake } from '../fakes/fly-machines';
import { StripeStandIn } from '../fakes/stripe-server';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { SetupWatch } from '../support/setup-watch';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, TEST_ADMIN_TOKEN } from './jobs-fixtures';

const TIMEOUT_MS = 300_000;
jest.setTimeout(TIMEOUT_MS);

/**
 * Property-based fuzzing of every operation of /api, /prog and the ping URLs, as the OpenAPI
 * documents list them: /prog's published document, and the one Nest's
 * Swagger scanner builds from every controller of the running app for /api.
 * Random and hostile bodies, headers, encodings, ids and query strings; the
 * property: never a 5xx, and every error answers `{"detail": ...}`.
 * FUZZ_RUNS sets the number of cases (default sized for CI: about a minute).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; $ref?: string; enum?: unknown[] };
interface Operation {
  method: string;
  path: string;
  bodySchema?: JsonSchema;
}
type OpenApiDocument = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** Operations whose success ends the fuzzing account's session: a fresh account follows each. */
const SESSION_ENDING = [/^DELETE \/api\/account$/, /^POST \/api\/auth\/(global-sign-out|change-password)$/];

function operationsOf(doc: OpenApiDocument, prefix: string): Operation[] {
  const resolve = (schema?: JsonSchema): JsonSchema | undefined =>
    schema?.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith(prefix))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        bodySchema: resolve(op.requestBody?.content?.['application/json']?.schema),
      })),
    );
}

/** Strings that broke or could break something somewhere: control characters, encodings, injections, sizes. */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff tail',
    '\ud83d\ude80',
    '\r\nX-Injected: 1',
    '../../../etc/passwd',
    "' OR '1'='1' --",
    '%00',
    '%',
    '${7*7}{{7*7}}',
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    '00000000-0000-0000-0000-000000000000',
    'x'.repeat(70_000),
    '\u202e\u200b\ufeff',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:127.0.0.1]:1/',
    'http://localhost:1/',
    '9'.repeat(400),
    '-1',
    'NaN',
    'true',
  ),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, -1, 1e308, -0, 2 ** 53 + 1, [], {}, [[[]]]) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
);

/** A valid job with one field replaced (or one unknown field added), for the operations whose body is a job. */
function nearValid(schema: JsonSchema): fc.Arbitrary<string> {
  const fields = Object.keys(schema.properties ?? {});
  return fc
    .record({ field: fc.constantFrom(...fields, '__proto__', 'extra'), value: hostileValue, drop: fc.boolean() })
    .map(({ field, value, drop }) => {
      const base: Record<string, unknown> = { ...jobDefinition(), url: 'http://127.0.0.1:9/fuzz' };
      if (drop && field in base) delete base[field];
      else base[field] = value;
      return JSON.stringify(base).replace('"extra"', field === '__proto__' ? '"__proto__"' : '"extra"');
    });
}

const deepJson = fc.integer({ min: 1, max: 5_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth));

interface Body {
  bytes?: Buffer;
  headers: Record<string, string>;
}

function bodyFor(op: Operation): fc.Arbitrary<Body> {
  const asJson = (text: fc.Arbitrary<string>) => text.map((t) => ({ bytes: Buffer.from(t), headers: { 'content-type': 'application/json' } }));
  const choices: Array<fc.Arbitrary<Body>> = [
    fc.constant({ headers: {} }),
    asJson(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v))),
    asJson(fc.dictionary(hostileString, hostileValue, { maxKeys: 6 }).map((v) => JSON.stringify(v))),
    asJson(deepJson),
    asJson(fc.constantFrom('{', '{"a":}', 'nul', '[1,]', '"\\ud800"', '{"a":"\\u0000"}', '{"__proto__":{"x":1}}', '\ufeff{}')),
    fc.uint8Array({ maxLength: 200 }).map((a) => ({ bytes: Buffer.from(a), headers: { 'content-type': 'application/json' } })),
    fc
      .record({
        encoding: fc.constantFrom('gzip', 'deflate', 'br', 'zstd', 'x-unknown', 'identity, gzip', 'GZIP'),
        valid: fc.boolean(),
      })
      .map(({ encoding, valid }) => ({
        bytes: valid && encoding === 'gzip' ? gzipSync('{"name":"x"}') : Buffer.from('\x1f\x8b garbage that is not compressed'),
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      })),
    fc
      .record({
        type: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/json; charset=koi8-r',
          'application/json; charset=nope',
          '*/*',
          ';;;',
        ),
        text: fc.string(),
      })
      .map(({ type, text }) => ({ bytes: Buffer.from(text), headers: { 'content-type': type } })),
  ];
  if (op.bodySchema?.properties) choices.push(asJson(nearValid(op.bodySchema)), asJson(nearValid(op.bodySchema)));
  return fc.oneof(...choices);
}

describe('fuzzing every /api and /prog operation from the OpenAPI documents', () => {
  let server: TestServer;
  let stripe: StripeStandIn;
  let fly: FlyMachinesFake;
  let account: SignedInAccount;
  let apiKey: string;
  let jobId: string;
  let operations: Operation[];
  let cases = 0;
  const statuses = new Map<number, number>();

  /** A signed-in account with an API key and one job; in the set-up, each step is named to the watch. */
  async function freshAccount(watch?: SetupWatch): Promise<void> {
    const step = <T>(name: string, work: () => Promise<T>) => (watch ? watch.step(name, work) : work());
    account = await step('sign up, verify and log in', () => signUpAndLogin(server));
    const key = await step('generate an API key', () =>
      server.http.post('/api/api-keys/generate', { name: 'fuzz' }, { token: account.accessToken }),
    );
    apiKey = key.body.api_key;
    const job = await step('create a job', () =>
      server.http.post('/api/jobs', { ...jobDefinition(), url: 'http://127.0.0.1:9/fuzz' }, { token: account.accessToken }),
    );
    if (!apiKey) throw new Error(`fuzz set-up failed: generating an API key answered ${key.status} ${key.text}`);
    if (!job.body.job_id) throw new Error(`fuzz set-up failed: creating a job answered ${job.status} ${job.text}`);
    jobId = job.body.job_id;
    // The fuzzer may delete this account (DELETE /api/account), and its audit entries with it: the set-up's are checked now.
    await server.auditCheckpoint();
  }

  let watch: SetupWatch | undefined;

  beforeAll(async () => {
    watch = new SetupWatch('fuzz-openapi', TIMEOUT_MS - 30_000);
    stripe = await watch.step('start the Stripe stand-in', () => StripeStandIn.start());
    stripe.seedPrices();
    fly = await watch.step('start the Fly Machines fake', () => FlyMachinesFake.start());
    server = await watch.step('start the server (database, migrations, listen)', () =>
      startTestServer({
        ...stripe.serverEnv(),
        ...fly.serverEnv(),
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        // Lets the fuzzer keep using its key after many wrong ones; the throttle has its own tests.
        AUTH_MAX_FAILURES_PER_IP: '100000',
      }),
    );
    watch.watchServer(server);
    await freshAccount(watch);
    const api = SwaggerModule.createDocument(server.app, new DocumentBuilder().build()) as unknown as OpenApiDocument;
    const prog = (await watch.step('read /prog/openapi.json', () => server.http.get<OpenApiDocument>('/prog/openapi.json'))).body;
    operations = [...operationsOf(api, '/api/'), ...operationsOf(prog, '/prog/'), ...operationsOf(prog, '/ping/')];
    watch.finish();
  });

  afterAll(async () => {
    watch?.finish();
    await server?.close();
    await stripe?.close();
    await fly?.close();
    process.stdout.write(
      `fuzz: ${cases} cases over ${operations?.length ?? 0} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`,
    );
  });

  it('finds a good number of operations in both documents', () => {
    expect(operations.filter((o) => o.path.startsWith('/api/')).length).toBeGreaterThan(40);
    const prog = operations.filter((o) => o.path.startsWith('/prog/')).map((o) => `${o.method} ${o.path}`);
    expect(prog).toEqual(expect.arrayContaining(['GET /prog/ping', 'POST /prog/jobs', 'PUT /prog/jobs/{job_id}', 'GET /prog/jobs/{job_id}/logs', 'POST /prog/monitors']));
    const ping = operations.filter((o) => o.path.startsWith('/ping/')).map((o) => `${o.method} ${o.path}`);
    expect(ping).toEqual(expect.arrayContaining(['GET /ping/{token}', 'POST /ping/{token}/fail', 'POST /ping/{token}/start']));
    expect(operations.find((o) => o.method === 'POST' && o.path === '/prog/jobs')?.bodySchema?.properties).toHaveProperty('cron_expression');
  });

  it('never answers 5xx and always answers errors with {"detail"}', async () => {
    const credentials = fc.constantFrom('none', 'own', 'garbage', 'api-key', 'api-key-wrong-user', 'admin');
    const pathId = fc.oneof(fc.constantFrom('own', 'random-uuid'), hostileString);
    const query = fc.array(fc.tuple(hostileString, hostileString), { maxLength: 3 });
    const extraHeaders = fc.dictionary(
      fc.constantFrom('x-user-id', 'x-api-key', 'origin', 'x-forwarded-for', 'accept', 'accept-encoding', 'cookie', 'if-none-match', 'range'),
      fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
      { maxKeys: 3 },
    );
    const sample = fc.constantFrom(...operations).chain((op) =>
      fc.record({ op: fc.constant(op), credentials, pathId, query, extraHeaders, body: bodyFor(op) }),
    );

    await fc.assert(
      fc.asyncProperty(sample, async ({ op, credentials: who, pathId: id, query: q, extraHeaders: extra, body }) => {
        cases += 1;
        const idText = id === 'own' ? jobId : id === 'random-uuid' ? '0b6f3c8e-2f1a-4c55-9d7e-3c2a1b0f9e8d' : id;
        let path = op.path.replace(/\{[^}]+\}/g, () => percentEncoded(idText));
        if (q.length) path += `?${q.map(([k, v]) => `${percentEncoded(k)}=${percentEncoded(v)}`).join('&')}`;
        const headers: Record<string, string> = { ...extra, ...body.headers };
        if (who === 'own') headers.authorization = `Bearer ${account.accessToken}`;
        if (who === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.';
        if (who === 'api-key' || who === 'api-key-wrong-user') {
          headers['x-api-key'] = apiKey;
          headers['x-user-id'] = who === 'api-key' ? account.userId : '00000000-0000-4000-8000-000000000000';
        }
        if (who === 'admin') headers['x-admin-token'] = TEST_ADMIN_TOKEN;

        const res = await send(server, op.method, path, headers, body.bytes);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const label = `${op.method} ${path.slice(0, 200)} as ${who} [${JSON.stringify(body.headers)}] ${body.bytes?.subarray(0, 120).toString('utf8') ?? ''}`;
        expect({ label, status: res.status < 500 ? 'not 5xx' : res.status }).toEqual({ label, status: 'not 5xx' });
        if (res.status >= 400) {
          expect({ label, contentType: res.contentType }).toEqual({ label, contentType: expect.stringMatching(/^application\/json/) });
          expect({ label, hasDetail: res.json !== null && typeof res.json === 'object' && 'detail' in res.json }).toEqual({ label, hasDetail: true });
        }
        if (res.status < 300 && SESSION_ENDING.some((p) => p.test(`${op.method} ${op.path}`))) await freshAccount();
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

/** Every UTF-8 byte of the text percent-encoded (encodeURIComponent throws on lone surrogates; this sends U+FFFD's bytes). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

/** One request through node:http (any method, headers and bytes); streams are cut after the head. */
function send(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; contentType: string; json: unknown }> {
  const url = new URL(server.baseUrl);
  // node:http sends a GET or DELETE body unframed unless told its length.
  if (body) headers = { ...headers, 'content-length': String(body.length) };
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      if (contentType.startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, contentType, json: null });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let json: unknown = null;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // not JSON: the property reports it for errors
        }
        resolve({ status: res.statusCode ?? 0, contentType, json });
      });
      // A response cut off before its end emits no 'end', and 'error' only to a listener: without these the case would wait forever.
      res.on('error', reject);
      res.on('close', () => {
        if (!res.complete) reject(new Error(`${method} ${path.slice(0, 200)}: the ${res.statusCode} response was cut off before its end`));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
