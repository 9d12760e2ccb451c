import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppProtocolHandler } from '../../desktop/main/windows/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../desktop/main/windows/window-security';

/**
 * The app:// handler with Node's own Request/Response (the same web API
 * Electron's protocol.handle uses), serving a bundle from disk and
 * forwarding /api to a real local HTTP server.
 */
describe('app:// protocol', () => {
  let dir: string;
  let upstream: Server;
  let upstreamUrl: string;
  const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cronbeam-renderer-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(join(dir, 'assets', 'index.js'), 'console.log(1)');
    await writeFile(join(dir, '..', 'secret-outside.txt'), 'outside');
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.setHeader('set-cookie', 'refresh_token=abc; HttpOnly');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => upstream.close(resolve));
    await rm(dir, { recursive: true, force: true });
    await rm(join(dir, '..', 'secret-outside.txt'), { force: true });
  });

  const handler = () => createAppProtocolHandler({ rendererDir: dir, serverUrl: () => upstreamUrl });

  it('serves the bundle, with the CSP on the page, and answers app routes with index.html', async () => {
    const page = await handler()(new Request('app://cronbeam/dashboard/jobs?logs=1'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain('<div id="root">');
    const script = await handler()(new Request('app://cronbeam/assets/index.js'));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await handler()(new Request('app://cronbeam/assets/missing.js'))).status).toBe(404);
  });

  it('never serves files outside the bundle', async () => {
    for (const path of ['/../secret-outside.txt', '/%2e%2e/secret-outside.txt', '/assets/%2e%2e/%2e%2e/secret-outside.txt']) {
      const response = await handler()(new Request(`app://cronbeam${path}`));
      expect(await response.text()).not.toBe('outside');
    }
    expect((await handler()(new Request('app://other/index.html'))).status).toBe(404);
  });

  it('forwards /api to the configured server with the bearer and body, without cookies either way', async () => {
    const response = await handler()(
      new Request('app://cronbeam/api/jobs?limit=5', {
        method: 'POST',
        headers: { authorization: 'Bearer t0k', 'content-type': 'application/json', cookie: 'session=leak' },
        body: JSON.stringify({ name: 'x' }),
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('set-cookie')).toBeNull();
    const call = seen.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', url: '/api/jobs?limit=5', body: '{"name":"x"}' });
    expect(call.headers.authorization).toBe('Bearer t0k');
    expect(call.headers.cookie).toBeUndefined();
  });

  it('answers 502 with the dashboard message when the server cannot be reached', async () => {
    const down = createAppProtocolHandler({ rendererDir: dir, serverUrl: () => 'http://127.0.0.1:1' });
    const response = await down(new Request('app://cronbeam/api/jobs'));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ detail: 'Failed to connect to the backend service' });
  });
});
