import { request as httpRequest } from 'node:http';
import { SESSION_EXPIRED_MESSAGE } from '@cronbeam/shared/site/host-guard';
import { startTestServer, type TestServer } from '../support/test-server';
import { buildWebApp } from '../browser/support/web-build';
import { fakeJwt } from '../browser/support/session-cookies';

jest.setTimeout(120_000);

const APP = 'app.cronbeam.test';
const MARKETING = 'www.cronbeam.test';
const DEV = 'dev.cronbeam.test';
const OTHER = 'preview.cronbeam.test';

interface RawAnswer {
  status: number;
  location?: string;
  etag?: string;
  setCookie: string[];
  body: string;
}

const validToken = () => fakeJwt({ sub: 'u1', exp: Math.floor(Date.now() / 1000) + 3600 });
const expiredToken = () => fakeJwt({ sub: 'u1', exp: Math.floor(Date.now() / 1000) - 60 });
const expiredLogin = `/login?${new URLSearchParams({ error: SESSION_EXPIRED_MESSAGE }).toString()}`;

describe('host guards (by Host header and session cookie)', () => {
  let server: TestServer;
  let port: number;

  /** A GET with the given Host header (fetch would not let a test choose it). */
  function get(host: string, path: string, idToken?: string, extra: Record<string, string> = {}): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { host, ...extra };
      if (idToken) headers.cookie = `idToken=${idToken}; accessToken=a.b.c`;
      const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, etag: res.headers.etag, setCookie: res.headers['set-cookie'] ?? [], body }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp(), APP_HOST: APP, MARKETING_HOST: MARKETING, DEV_HOST: DEV });
    port = Number(new URL(server.baseUrl).port);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('serves the open pages on every host', async () => {
    for (const host of [MARKETING, APP, DEV, OTHER]) {
      for (const path of ['/pricing', '/terms', '/privacy', '/refund', '/contact', '/guides', '/guides/webhooks', '/api-documentation']) {
        const res = await get(host, path);
        expect({ host, path, status: res.status }).toEqual({ host, path, status: 200 });
      }
    }
  });

  it('shows the landing page on the marketing host, with canonical links to it', async () => {
    for (const token of [undefined, validToken()]) {
      const res = await get(MARKETING, '/', token);
      expect(res.status).toBe(200);
      expect(res.body).toContain('Start for Free');
      expect(res.body).toContain(`<link rel="canonical" href="http://${MARKETING}/" />`);
    }
    // Every host points search engines at the marketing host.
    expect((await get(OTHER, '/terms')).body).toContain(`<link rel="canonical" href="http://${MARKETING}/terms" />`);
  });

  it('sends / on the app and dev hosts to /dashboard with a valid session, else to /login', async () => {
    for (const host of [APP, DEV]) {
      expect(await get(host, '/', validToken())).toMatchObject({ status: 302, location: '/dashboard' });
      expect(await get(host, '/')).toMatchObject({ status: 302, location: '/login' });
      expect(await get(host, '/', expiredToken())).toMatchObject({ status: 302, location: '/login' });
    }
  });

  it('serves /login, /signup and /verify only on the app and dev hosts, redirecting other hosts to the same page on the app host', async () => {
    for (const path of ['/login', '/signup', '/verify', '/verify/ada%40example.test', '/signup?plan=pro']) {
      for (const host of [APP, DEV]) expect({ host, path, status: (await get(host, path)).status }).toEqual({ host, path, status: 200 });
      for (const host of [MARKETING, OTHER]) {
        expect(await get(host, path)).toMatchObject({ status: 302, location: `http://${APP}${path}` });
      }
    }
  });

  it('sends /dashboard and /profile on other hosts to the app host', async () => {
    for (const path of ['/dashboard', '/dashboard/jobs', '/profile']) {
      for (const host of [MARKETING, OTHER]) {
        expect(await get(host, path, validToken())).toMatchObject({ status: 302, location: `http://${APP}${path}` });
      }
    }
  });

  it('needs an unexpired identity token for /dashboard and /profile: else clears the session and goes to /login with the message', async () => {
    for (const path of ['/dashboard', '/dashboard/jobs', '/profile']) {
      for (const host of [APP, DEV]) {
        expect({ host, path, status: (await get(host, path, validToken())).status }).toEqual({ host, path, status: 200 });
        for (const token of [undefined, expiredToken(), 'not-a-jwt']) {
          const res = await get(host, path, token);
          expect({ host, path, status: res.status, location: res.location }).toEqual({ host, path, status: 302, location: expiredLogin });
          const cleared = res.setCookie.filter((c) => /^(idToken|accessToken)=;/.test(c) && /Expires=Thu, 01 Jan 1970/.test(c));
          // Host-only and on the shared parent domain, for both cookies.
          expect(cleared.map((c) => c.split('=')[0] + (c.includes('Domain=cronbeam.test') ? '@parent' : '')).sort()).toEqual([
            'accessToken', 'accessToken@parent', 'idToken', 'idToken@parent',
          ]);
        }
      }
    }
    // The social-login callback arrives without a session.
    expect((await get(APP, '/dashboard/auth/callback?code=abc')).status).toBe(200);
  });

  it('needs a session for /success and /cancel', async () => {
    for (const path of ['/success', '/cancel']) {
      expect((await get(APP, path, validToken())).status).toBe(200);
      expect(await get(APP, path)).toMatchObject({ status: 302, location: expiredLogin });
    }
  });

  it('tells the app the hosts, so it applies the same rules on client-side navigation', async () => {
    // On the marketing host the app runs for the social sign-in callback (/pricing there is a prerendered public page, with no router).
    for (const [host, path] of [[APP, '/login'], [MARKETING, '/dashboard/auth/callback']]) {
      const res = await get(host, path);
      const tag = res.body.match(/<meta name="cronbeam:hosts" content="([^"]+)" \/>/)?.[1];
      expect(JSON.parse((tag ?? '').replace(/&quot;/g, '"'))).toEqual({ app: APP, marketing: MARKETING, dev: DEV });
    }
  });

  it('never prints a malformed Host header into a page', async () => {
    const res = await get('evil.test"><script>alert(1)</script>', '/terms');
    expect(res.body).not.toContain('<script>alert(1)</script>');
  });

  it('lets browsers revalidate the pages they must not reuse unchecked (ETag, then 304 without a body); API answers carry no tag', async () => {
    for (const [host, path] of [[MARKETING, '/pricing'], [MARKETING, '/'], [APP, '/login'], [MARKETING, '/robots.txt'], [MARKETING, '/sitemap.xml']] as const) {
      const first = await get(host, path);
      expect({ path, status: first.status, etag: first.etag }).toEqual({ path, status: 200, etag: expect.stringMatching(/^W\/"[0-9a-f]+-[\w+/]{27}"$/) });
      const again = await get(host, path, undefined, { 'if-none-match': `"other", ${first.etag}` });
      expect({ path, status: again.status, body: again.body }).toEqual({ path, status: 304, body: '' });
      // Another host's page differs (its canonical links, its hosts): the tag tells them apart.
      if (host === MARKETING && path === '/pricing') expect((await get(APP, path, undefined, { 'if-none-match': first.etag! })).status).toBe(200);
    }
    expect((await get(APP, '/api/ping')).etag).toBeUndefined();
  });

  it('answers a request that names the whole URL (absolute form, as a browser sends it through a proxy) as it answers the path', async () => {
    const cases: Array<[string, string]> = [
      [MARKETING, '/pricing'],
      [APP, '/login'],
      [APP, '/dashboard'],
      [APP, '/api/ping'],
      [APP, '/site-pages/pricing.html'],
      [APP, '/no-such-page?x=1'],
    ];
    for (const [host, path] of cases) {
      const relative = await get(host, path);
      const absolute = await get(host, `http://${host}${path}`);
      expect({ path, status: absolute.status, location: absolute.location }).toEqual({ path, status: relative.status, location: relative.location });
      if (relative.status === 200) expect(absolute.body.length).toBe(relative.body.length);
    }
  });
});
