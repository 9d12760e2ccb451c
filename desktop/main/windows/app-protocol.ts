import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { APP_HOST, CONTENT_SECURITY_POLICY } from './window-security';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Request headers passed on to the server; cookies and the app's origin stay behind. */
const FORWARDED_HEADERS = ['accept', 'authorization', 'content-type', 'last-event-id', 'cache-control'];

export interface AppProtocolOptions {
  /** The built renderer (out/renderer). */
  rendererDir: string;
  serverUrl: () => string;
  fetch?: typeof fetch;
}

/**
 * Serves `app://cronbeam/…`: the React bundle (any unknown path answers
 * index.html, so the app's routes work as on the web), and `/api/…`
 * forwarded to the configured server — the window then calls its API on
 * its own origin, with no CORS and no cookies (the desktop keeps the
 * session in the vault, never in cookies).
 */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const forward = options.fetch ?? ((input, init) => fetch(input, init));
  const root = normalize(options.rendererDir);

  async function serveFile(pathname: string): Promise<Response> {
    let relative: string;
    try {
      relative = decodeURIComponent(pathname);
    } catch {
      return new Response('Bad path', { status: 400 });
    }
    const file = normalize(join(root, relative));
    if (file !== root && !file.startsWith(root + sep)) return new Response('Not found', { status: 404 });
    const isFile = await stat(file).then((s) => s.isFile(), () => false);
    // Routes of the single-page app (no extension) answer the page; a missing asset is a 404.
    const target = isFile ? file : extname(relative) === '' ? join(root, 'index.html') : null;
    if (!target) return new Response('Not found', { status: 404 });
    const type = CONTENT_TYPES[extname(target)] ?? 'application/octet-stream';
    const headers: Record<string, string> = { 'content-type': type, 'x-content-type-options': 'nosniff' };
    if (type.startsWith('text/html')) headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
    return new Response(await readFile(target), { status: 200, headers });
  }

  async function forwardApi(request: Request, url: URL): Promise<Response> {
    const headers = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    let upstream: Response;
    try {
      upstream = await forward(`${options.serverUrl()}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        body: hasBody ? await request.arrayBuffer() : undefined,
        signal: request.signal,
        redirect: 'manual',
      });
    } catch {
      return new Response(JSON.stringify({ detail: 'Failed to connect to the backend service' }), {
        status: 502,
        headers: { 'content-type': 'application/json' },
      });
    }
    const responseHeaders = new Headers(upstream.headers);
    responseHeaders.delete('set-cookie');
    // fetch already decoded the body; the length and encoding headers no longer describe it.
    responseHeaders.delete('content-encoding');
    responseHeaders.delete('content-length');
    return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: responseHeaders });
  }

  return async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return forwardApi(request, url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 });
    return serveFile(url.pathname);
  };
}
