import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { startTestServer, type TestServer } from '../support/test-server';

describe('foundation: HTTP surface, errors, web app, database', () => {
  let webDir: string;
  let server: TestServer;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Cronbeam</title><div id="root"></div>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    server = await startTestServer({ WEB_DIST_DIR: webDir });
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers GET /api/ping with pong', async () => {
    const res = await server.http.get('/api/ping');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'pong' });
  });

  it('reports ready when the database answers', async () => {
    const res = await server.http.get('/api/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });

  it('answers unknown API routes with a JSON 404 in the detail shape', async () => {
    for (const p of ['/api/nope', '/prog/nope', '/.well-known/nope', '/api']) {
      const res = await server.http.get(p);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body).toEqual({ detail: 'Not found' });
    }
    const post = await server.http.post('/api/nope', { a: 1 });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ detail: 'Not found' });
  });

  it('serves the web app for client-side routes and its assets', async () => {
    for (const p of ['/', '/dashboard', '/login?email=a@b.c', '/guides/webhooks']) {
      const res = await server.http.get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toContain('<div id="root"></div>');
    }
    const asset = await server.http.get('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missingAsset = await server.http.get('/assets/missing.js');
    expect(missingAsset.status).toBe(404);
  });

  it('turns malformed JSON into a 422 naming the body', async () => {
    const res = await server.http.post('/api/ping', '{"name": ');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }] });
  });

  it('refuses bodies over the size limit with 413', async () => {
    const res = await server.http.post('/api/ping', { blob: 'x'.repeat(300 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: 'Request body is too large' });
  });

  it('gives every response a request id, echoing a safe incoming one', async () => {
    const minted = await server.http.get('/api/ping');
    expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await server.http.get('/api/nope', { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const unsafe = await server.http.get('/api/nope', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(unsafe.headers.get('x-request-id')).not.toContain('script');
    const line = server.logs.entries().find((e) => (e.req as { id?: string } | undefined)?.id === 'abc-123');
    expect(line).toBeDefined();
  });

  it('logs requests the body parser refuses, with their request id', async () => {
    const res = await server.http.post('/api/jobs', '{"name": ', { headers: { 'x-request-id': 'bad-json-1' } });
    expect(res.status).toBe(422);
    const line = server.logs.entries().find((e) => (e.req as { id?: string } | undefined)?.id === 'bad-json-1');
    expect((line?.res as { statusCode?: number } | undefined)?.statusCode).toBe(422);
  });

  it('has applied the checked-in migrations', async () => {
    const client = new Client({ connectionString: server.database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
      expect(rows.map((r) => r.name)).toContain('InitialSchema1763800000000');
    } finally {
      await client.end();
    }
  });

  it('keeps secrets out of the logs', async () => {
    await server.http.get('/api/nope?token=supersecretvalue123&password=hunter2hunter2', {
      headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', 'x-api-key': 'cb_live_abcdef123456' },
    });
    const text = server.logs.text();
    expect(text).toContain('/api/nope');
    expect(text).not.toContain('supersecretvalue123');
    expect(text).not.toContain('hunter2hunter2');
    expect(text).not.toContain('cb_live_abcdef123456');
    expect(text).not.toContain('c2lnbmF0dXJl');
  });
});
