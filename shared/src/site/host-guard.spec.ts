import { describe, expect, it } from '@jest/globals';
import { decideHostRoute, hostMatches, isAppPath, isOpenPath, isUnexpiredJwt, type HostGuardRequest } from './host-guard';

const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
const NOW = Date.UTC(2026, 0, 1);

const request = (over: Partial<HostGuardRequest>): HostGuardRequest => ({
  path: '/',
  search: '',
  host: 'www.example.com',
  protocol: 'https',
  hosts: { app: 'app.example.com', marketing: 'www.example.com' },
  hasSession: false,
  signedOut: false,
  ...over,
});

describe('host guard rules', () => {
  it('matches a configured host by name and port, or by name when configured without a port, ignoring case', () => {
    expect(hostMatches('app.example.com', 'APP.example.com:8443')).toBe(true);
    expect(hostMatches('app.example.com:8443', 'app.example.com:8443')).toBe(true);
    expect(hostMatches('app.example.com:8443', 'app.example.com:9000')).toBe(false);
    expect(hostMatches('app.example.com', 'evil-app.example.com')).toBe(false);
    expect(hostMatches(undefined, 'app.example.com')).toBe(false);
  });

  it('reads only unexpired tokens as a session, whatever else the cookie holds', () => {
    expect(isUnexpiredJwt(jwt({ exp: NOW / 1000 + 60 }), NOW)).toBe(true);
    expect(isUnexpiredJwt(jwt({ exp: NOW / 1000 }), NOW)).toBe(false);
    expect(isUnexpiredJwt(jwt({ sub: 'no-exp' }), NOW)).toBe(false);
    expect(isUnexpiredJwt(jwt({ exp: '2099' }), NOW)).toBe(false);
    for (const junk of [undefined, null, '', 'abc', 'a.%%%.c', 'a.bnVsbA.c']) expect(isUnexpiredJwt(junk, NOW)).toBe(false);
  });

  it('tells public pages from app screens', () => {
    for (const p of ['/', '/pricing', '/guides', '/guides/webhooks', '/api-documentation', '/contact']) expect(isOpenPath(p)).toBe(true);
    for (const p of ['/login', '/dashboard', '/guidesx']) expect(isOpenPath(p)).toBe(false);
    for (const p of ['/login', '/verify/a@b.c', '/dashboard/jobs', '/auth/callback', '/desktop/settings', '/invitations/accept']) expect(isAppPath(p)).toBe(true);
    for (const p of ['/loginx', '/terms', '/dashboards']) expect(isAppPath(p)).toBe(false);
  });

  it('sends sign-in pages to the app host with their query, over the request protocol', () => {
    expect(decideHostRoute(request({ path: '/signup', search: '?plan=pro' }))).toEqual({
      kind: 'redirect',
      location: 'https://app.example.com/signup?plan=pro',
      clearSession: false,
    });
    // Only a dev host configured: it is the app host.
    expect(decideHostRoute(request({ path: '/login', hosts: { marketing: 'www.example.com', dev: 'dev.example.com' } }))).toMatchObject({
      location: 'https://dev.example.com/login',
    });
  });

  it('serves everything on one host when none is configured, the dashboard only with a session', () => {
    const single = { hosts: {}, host: 'localhost:3000' };
    expect(decideHostRoute(request({ ...single, path: '/' }))).toEqual({ kind: 'serve', page: 'landing' });
    expect(decideHostRoute(request({ ...single, path: '/login' }))).toEqual({ kind: 'serve', page: 'page' });
    expect(decideHostRoute(request({ ...single, path: '/dashboard', hasSession: true }))).toEqual({ kind: 'serve', page: 'page' });
    expect(decideHostRoute(request({ ...single, path: '/dashboard' }))).toMatchObject({ kind: 'redirect', clearSession: true });
  });

  it('lets the social-login callback through without a session', () => {
    expect(decideHostRoute(request({ path: '/dashboard/auth/callback', host: 'app.example.com' }))).toEqual({ kind: 'serve', page: 'page' });
  });

  it('forwards a signed-in user from /login to the dashboard (or the pricing page a plan was chosen on)', () => {
    const app = { host: 'app.example.com' };
    expect(decideHostRoute(request({ ...app, path: '/login', hasSession: true }))).toEqual({ kind: 'redirect', location: '/dashboard', clearSession: false });
    expect(decideHostRoute(request({ ...app, path: '/login', search: '?redirect=pricing', hasSession: true }))).toMatchObject({ location: '/pricing' });
    expect(decideHostRoute(request({ ...app, path: '/login' }))).toEqual({ kind: 'serve', page: 'page' });
  });

  it('says the session expired only when it did: after a sign-out of the user\'s own, /login without the message', () => {
    const app = { host: 'app.example.com' };
    expect(decideHostRoute(request({ ...app, path: '/dashboard', signedOut: true }))).toEqual({ kind: 'redirect', location: '/login', clearSession: true });
    expect(decideHostRoute(request({ ...app, path: '/success', signedOut: true }))).toMatchObject({ location: '/login' });
    expect(decideHostRoute(request({ ...app, path: '/dashboard' }))).toMatchObject({ location: expect.stringContaining('/login?error=') });
  });
});
