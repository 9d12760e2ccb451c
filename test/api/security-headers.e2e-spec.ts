import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { freePort } from '../support/free-port';

jest.setTimeout(120_000);

const METRICS_TOKEN = 'metrics-token-0123456789abcdefghij';

/** One path (or request) from every route family the server answers. */
const ROUTE_FAMILIES: Array<[string, string, Record<string, string>, string | undefined]> = [
  ['web app page', '/dashboard', {}, undefined],
  ['public site page', '/', {}, undefined],
  ['API', '/api/ping', {}, undefined],
  ['API, refused', '/api/jobs', {}, undefined],
  ['API, unknown route', '/api/no-such-thing', {}, undefined],
  ['API, body refused at the edge', '/api/auth/login', { 'content-type': 'application/json' }, '{"a":'],
  ['public API', '/prog/ping', {}, undefined],
  ['public API reference (Swagger UI)', '/prog/docs', {}, undefined],
  ['public API document', '/prog/openapi.json', {}, undefined],
  ['JWKS', '/.well-known/jwks.json', {}, undefined],
  ['metrics', '/metrics', {}, undefined],
];


function expectBrowserHeaders(label: string, headers: Headers): void {
  const csp = headers.get('content-security-policy') ?? '';
  const directives = Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values.join(' ')]),
  );
  expect({ label, scripts: directives['script-src'] }).toEqual({ label, scripts: "'self'" });
  expect({ label, defaults: directives['default-src'] }).toEqual({ label, defaults: "'self'" });
  expect({ label, framing: directives['frame-ancestors'] }).toEqual({ label, framing: "'none'" });
  expect({ label, objects: directives['object-src'] }).toEqual({ label, objects: "'none'" });
  expect({ label, nosniff: headers.get('x-content-type-options') }).toEqual({ label, nosniff: 'nosniff' });
  expect({ label, frame: headers.get('x-frame-options') }).toEqual({ label, frame: 'DENY' });
  expect({ label, referrer: headers.get('referrer-policy') }).toEqual({ label, referrer: 'strict-origin-when-cross-origin' });
  expect({ label, poweredBy: headers.get('x-powered-by') }).toEqual({ label, poweredBy: null });
}

describe('browser security headers, the refresh cookie and /metrics', () => {
  let database: TestDatabase;
  /** http PUBLIC_URL, metrics behind a token. */
  let plain: TestServer;
  /** https PUBLIC_URL, production, metrics on a loopback port of their own. */
  let https: TestServer;
  let metricsPort: number;
  let user: SignedInAccount;

  beforeAll(async () => {
    database = await createTestDatabase(5);
    plain = await startTestServer({ METRICS_TOKEN }, database);
    metricsPort = await freePort();
    https = await startTestServer({ NODE_ENV: 'production', PUBLIC_URL: 'https://cronbeam.example', METRICS_PORT: String(metricsPort) }, database);
    user = await signUpAndLogin(plain);
  });

  afterAll(async () => {
    await https?.close();
    await plain?.close();
    await database?.drop();
  });

  it.each(ROUTE_FAMILIES)('%s (%s): CSP without inline scripts, nosniff, no framing, referrer policy; no HSTS over http', async (label, path, headers, body) => {
    const res = await fetch(plain.baseUrl + path, { method: body ? 'POST' : 'GET', headers, body, redirect: 'manual' });
    expectBrowserHeaders(label, res.headers);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it.each(ROUTE_FAMILIES)('%s (%s) under an https PUBLIC_URL: the same headers plus HSTS', async (label, path, headers, body) => {
    const res = await fetch(https.baseUrl + path, { method: body ? 'POST' : 'GET', headers, body, redirect: 'manual' });
    expectBrowserHeaders(label, res.headers);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });

  it('gives the refresh cookie Secure under an https PUBLIC_URL whatever the Host (here 127.0.0.1)', async () => {
    const res = await https.http.post('/api/auth/login', { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^cb_refresh=[^;]+;.*Path=\/api\/auth;.*HttpOnly; Secure; SameSite=Lax/);
    const local = await plain.http.post('/api/auth/login', { email: user.email, password: user.password });
    expect(local.headers.get('set-cookie')).not.toMatch(/Secure/);
  });

  describe('Origin check on the cookie-authenticated endpoints', () => {
    const cookieOf = (setCookie: string | null) => /cb_refresh=[^;]+/.exec(setCookie ?? '')![0];

    it.each(['refresh', 'logout'])('%s with the cookie from another site answers 403 and changes nothing', async (endpoint) => {
      const login = await plain.http.post('/api/auth/login', { email: user.email, password: user.password });
      const cookie = cookieOf(login.headers.get('set-cookie'));
      for (const origin of ['https://evil.example', 'null', 'http://localhost:1']) {
        const res = await plain.http.post(`/api/auth/${endpoint}`, {}, { headers: { cookie, origin } });
        expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
        expect(res.body).toEqual({ detail: 'Cross-site request refused: Origin does not match this service' });
      }
      // The session survived the refused attempts.
      const same = await plain.http.post('/api/auth/refresh', {}, { headers: { cookie, origin: plain.baseUrl } });
      expect(same.status).toBe(200);
    });

    it('accepts the published origin, the request own origin, and clients that send no Origin', async () => {
      const login = await plain.http.post('/api/auth/login', { email: user.email, password: user.password });
      let cookie = cookieOf(login.headers.get('set-cookie'));
      for (const headers of [{ origin: plain.config.publicUrl }, { origin: plain.baseUrl }, {}] as Array<Record<string, string>>) {
        const res = await plain.http.post('/api/auth/refresh', {}, { headers: { cookie, ...headers } });
        expect({ headers, status: res.status }).toEqual({ headers, status: 200 });
        cookie = cookieOf(res.headers.get('set-cookie'));
      }
    });

    it('does not apply to a refresh token sent in the body (no ambient credential)', async () => {
      const login = await plain.http.post('/api/auth/login', { email: user.email, password: user.password });
      const res = await plain.http.post('/api/auth/refresh', { refresh_token: login.body.refresh_token }, { headers: { origin: 'app://desktop' } });
      expect(res.status).toBe(200);
    });
  });

  describe('/metrics', () => {
    it('requires METRICS_TOKEN as a bearer token', async () => {
      for (const token of [undefined, 'wrong', `${METRICS_TOKEN}x`]) {
        const res = await plain.http.get('/metrics', { token });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: 'A valid metrics token is required' });
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      }
      const ok = await plain.http.get('/metrics', { token: METRICS_TOKEN });
      expect(ok.status).toBe(200);
      expect(ok.text).toMatch(/^cronbeam_process_cpu_seconds_total/m);
    });

    it('with METRICS_PORT is served on 127.0.0.1 at that port only', async () => {
      const open = await https.http.get('/metrics');
      expect(open.status).toBe(404);
      expect(open.body).toEqual({ detail: 'Not found' });
      const local = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(local.status).toBe(200);
      expect(await local.text()).toMatch(/^cronbeam_process_cpu_seconds_total/m);
      // Bound to loopback: the port is not open on the machine's other addresses.
      const external = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal);
      if (external) {
        const reached = await new Promise<boolean>((resolve) => {
          const socket = connect(metricsPort, external.address, () => {
            socket.destroy();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        });
        expect(reached).toBe(false);
      }
    });
  });
});
