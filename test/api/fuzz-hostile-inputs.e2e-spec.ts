import { connect } from 'node:net';
import { request } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import type { SignedInAccount } from '../support/accounts';
import { startServerWithApiKey } from '../support/api-key-account';
import { SetupWatch } from '../support/setup-watch';
import type { TestServer } from '../support/test-server';
import { jobDefinition } from './jobs-fixtures';

const TIMEOUT_MS = 120_000;
jest.setTimeout(TIMEOUT_MS);

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request through node:http, which (unlike fetch) sends any Content-Encoding and body bytes as given. */
function send(server: TestServer, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<RawAnswer> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the assertions below report it
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
      // A response cut off before its end emits no 'end', and 'error' only to a listener: without these the test would wait forever.
      res.on('error', reject);
      res.on('close', () => {
        if (!res.complete) reject(new Error(`${method} ${path}: the ${res.statusCode} response was cut off before its end`));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Raw bytes on a socket, for requests Node's own client refuses to build; the status line and body of the answer. */
function sendRaw(server: TestServer, bytes: string): Promise<{ status: number; body: any; head: string }> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, body = ''] = text.split('\r\n\r\n');
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // reported by the assertions
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body: parsed, head });
    });
  });
}

describe('hostile inputs at the HTTP edge: 4xx with {"detail"}, never 500', () => {
  let server: TestServer;
  let user: SignedInAccount;
  let apiKey: string;

  let watch: SetupWatch | undefined;

  beforeAll(async () => {
    watch = new SetupWatch('fuzz-hostile-inputs', TIMEOUT_MS - 20_000);
    ({ server, user, apiKey } = await startServerWithApiKey('hostile', watch));
    watch.finish();
  });
  afterAll(async () => {
    watch?.finish();
    await server?.close();
  });

  describe('body encodings', () => {
    const json = Buffer.from(JSON.stringify({ email: 'nobody@example.test', password: 'whatever-password' }));

    it.each([
      ['gzip', Buffer.from('this is not gzip')],
      ['deflate', Buffer.from('this is not deflate')],
      ['gzip', gzipSync(json).subarray(0, 12)], // truncated stream
      ['br', Buffer.from('not brotli either')],
    ])('a body that is not valid %s answers 400 on an unauthenticated endpoint', async (encoding, body) => {
      const res = await send(server, 'POST', '/api/auth/login', { 'content-type': 'application/json', 'content-encoding': encoding }, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Request body does not decode as its Content-Encoding says' });
    });

    it('an unknown Content-Encoding answers 415', async () => {
      const res = await send(server, 'POST', '/api/auth/login', { 'content-type': 'application/json', 'content-encoding': 'x-snappy' }, json);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ detail: 'Unsupported request body encoding' });
    });

    it('valid gzip and deflate bodies are decoded and handled normally', async () => {
      for (const [encoding, body] of [
        ['gzip', gzipSync(json)],
        ['deflate', deflateSync(json)],
      ] as const) {
        const res = await send(server, 'POST', '/api/auth/login', { 'content-type': 'application/json', 'content-encoding': encoding }, body);
        expect({ encoding, status: res.status }).toEqual({ encoding, status: 401 });
        expect(typeof res.body.detail).toBe('string');
      }
    });
  });

  describe('JSON nesting', () => {
    it.each([10_000, 65])('%i levels deep answers 422 naming the body', async (depth) => {
      const body = '['.repeat(depth) + ']'.repeat(depth);
      for (const path of ['/api/auth/login', '/api/jobs', '/prog/jobs']) {
        const res = await send(server, 'POST', path, { 'content-type': 'application/json', authorization: `Bearer ${path.startsWith('/prog') ? apiKey : user.accessToken}` }, body);
        expect({ path, status: res.status }).toEqual({ path, status: 422 });
        expect(res.body.detail).toEqual([{ loc: ['body'], msg: 'Request body is nested more than 64 levels deep', type: 'json_too_deep' }]);
      }
    });

    it('a job body nested 20 levels deep is still accepted', async () => {
      let nested: unknown = 'leaf';
      for (let i = 0; i < 20; i += 1) nested = { level: nested };
      const res = await server.http.post('/api/jobs', jobDefinition({ body: nested }), { token: user.accessToken });
      expect(res.status).toBe(200);
    });
  });

  describe('text the database cannot store', () => {
    const NUL = 'Text must not contain NUL characters (\\u0000)';
    const SURROGATE = 'Text must not contain unpaired UTF-16 surrogates';

    it.each([
      ['job name', '/api/jobs', () => jobDefinition({ name: 'a\u0000b' }), ['body', 'name'], NUL],
      ['job body', '/api/jobs', () => jobDefinition({ body: 'x\u0000y' }), ['body', 'body'], NUL],
      ['job URL path', '/api/jobs', () => jobDefinition({ url: 'https://example.com/a\u0000b' }), ['body', 'url'], NUL],
      ['job header value', '/api/jobs', () => jobDefinition({ headers: { 'X-A': 'v\ud800' } }), ['body', 'headers', 'X-A'], SURROGATE],
      ['job header name', '/api/jobs', () => jobDefinition({ headers: { 'X-\udc00': 'v' } }), ['body', 'headers', 'X-\udc00'], SURROGATE],
      ['job body (surrogate)', '/prog/jobs', () => jobDefinition({ body: '\ud83d' }), ['body', 'body'], SURROGATE],
      ['API key name', '/api/api-keys/generate', () => ({ name: 'k\u0000' }), ['body', 'name'], NUL],
      ['sign-up name', '/api/auth/signup', () => ({ name: 'N\u0000', email: 'nul@example.test', password: 'long-enough-pw' }), ['body', 'name'], NUL],
    ])('%s: 422 naming the field', async (_label, path, body, loc, msg) => {
      const token = path.startsWith('/prog') ? apiKey : user.accessToken;
      const res = await server.http.post(path, body(), { token });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc, msg })]);
    });

    it('a NUL in a query parameter or a path segment: 422', async () => {
      const query = await server.http.get('/api/jobs?search=a%00b', { token: user.accessToken });
      expect(query.status).toBe(422);
      expect(query.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'search'], msg: NUL })]);
      const path = await server.http.get('/api/jobs/a%00b', { token: user.accessToken });
      expect(path.status).toBe(422);
      expect(path.body.detail).toEqual([expect.objectContaining({ loc: ['path'], msg: NUL })]);
    });

    it('paired surrogates (emoji) are fine', async () => {
      const res = await server.http.post('/api/jobs', jobDefinition({ body: 'rocket \ud83d\ude80' }), { token: user.accessToken });
      expect(res.status).toBe(200);
    });
  });

  describe('__proto__', () => {
    it('is refused like every other unknown field, on both APIs, create and update', async () => {
      const body = `{"name":"proto-job","url":"https://example.com/","cron_expression":"* * * * *","__proto__":{"admin":true}}`;
      const created = (await server.http.post('/api/jobs', jobDefinition(), { token: user.accessToken })).body;
      for (const [method, path, token] of [
        ['POST', '/api/jobs', user.accessToken],
        ['PUT', `/api/jobs/${created.job_id}`, user.accessToken],
        ['POST', '/prog/jobs', apiKey],
        ['PUT', `/prog/jobs/${created.job_id}`, apiKey],
      ]) {
        const res = await server.http.request(method, path, { token, body });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 422 });
        expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', '__proto__'], msg: 'Unknown field' })]);
      }
    });
  });

  describe("requests Node's parser refuses", () => {
    it.each([
      ['a CR in a header name', 'GET /api/ping HTTP/1.1\r\nHost: x\r\nX-Bad\rName: 1\r\n\r\n'],
      ['a space in a header name', 'GET /api/ping HTTP/1.1\r\nHost: x\r\nX Bad: 1\r\n\r\n'],
      ['Content-Length with Transfer-Encoding', 'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
      ['two different Content-Lengths', 'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}'],
      ['a NUL in a header value', 'GET /api/ping HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
      ['a garbage request line', 'HELLO\r\n\r\n'],
    ])('%s: 400 with a {"detail"} body', async (_label, bytes) => {
      const res = await sendRaw(server, bytes);
      expect(res.status).toBe(400);
      expect(typeof res.body.detail).toBe('string');
      expect(res.head).toMatch(/content-type: application\/json/i);
    });

    it('oversized headers: 431 with a {"detail"} body', async () => {
      const res = await sendRaw(server, `GET /api/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(res.body).toEqual({ detail: 'Request headers are too large' });
    });
  });
});
