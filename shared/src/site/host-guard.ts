/**
 * Which host may serve which page. The server applies these rules to the Host
 * header of every page request and the web app applies them again on every
 * client-side navigation, so both read this one function.
 */

/** The configured hosts (host or host:port); all unset means one host serves everything. */
export interface SiteHosts {
  app?: string;
  marketing?: string;
  dev?: string;
}

export type HostDecision =
  | { kind: 'serve'; page: 'landing' | 'page' }
  /** Go to `location` (an absolute URL on another host, or a path on this one); clear the session first when asked. */
  | { kind: 'redirect'; location: string; clearSession: boolean };

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please login again.';

/** Pages open on every host. */
export const OPEN_PATHS = ['/', '/pricing', '/terms', '/privacy', '/refund', '/contact', '/guides', '/api-documentation'] as const;

export function isOpenPath(path: string): boolean {
  return (OPEN_PATHS as readonly string[]).includes(path) || path.startsWith('/guides/');
}

const AUTH_PAGES = ['/login', '/signup', '/verify', '/forgot-password'];
const SOCIAL_CALLBACK = '/dashboard/auth/callback';

function isAuthPage(path: string): boolean {
  return AUTH_PAGES.includes(path) || path.startsWith('/verify/');
}

/** Pages of a signed-in user that belong to the app host. */
function isSessionPage(path: string): boolean {
  if (path === SOCIAL_CALLBACK) return false;
  return path === '/dashboard' || path.startsWith('/dashboard/') || path === '/profile';
}

/** Pages that need a session but no particular host (the checkout's return pages). */
function needsSessionOnly(path: string): boolean {
  return path === '/success' || path === '/cancel';
}

/**
 * Screens of the single-page app (served its index.html). The server answers
 * 404 for a path that is neither one of these nor a public page, so a new
 * screen must be listed here.
 */
export const APP_PATH_PREFIXES = ['/login', '/signup', '/verify', '/forgot-password', '/auth', '/dashboard', '/profile', '/success', '/cancel', '/pricing', '/desktop', '/invitations'] as const;

export function isAppPath(path: string): boolean {
  return APP_PATH_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** A configured host matches the request's Host with its port, or by name alone when configured without one. */
export function hostMatches(configured: string | undefined, requestHost: string): boolean {
  if (!configured) return false;
  const want = configured.trim().toLowerCase();
  const got = requestHost.trim().toLowerCase();
  if (want === got) return true;
  return !want.includes(':') && got.replace(/:\d+$/, '') === want;
}

export function hostsConfigured(hosts: SiteHosts): boolean {
  return Boolean(hosts.app || hosts.marketing || hosts.dev);
}

export interface HostGuardRequest {
  /** Path without query. */
  path: string;
  /** The query string including its '?', or ''. */
  search: string;
  host: string;
  /** 'http' or 'https'. */
  protocol: string;
  hosts: SiteHosts;
  /** An identity token exists and has not expired. */
  hasSession: boolean;
  /**
   * The last session here ended by the user's own sign-out (the signedOut
   * session value), not by expiry: a page that needs a session then sends the
   * user to /login without saying the session expired.
   */
  signedOut: boolean;
}

/** The session value a deliberate sign-out leaves behind (and a sign-in removes). */
export const SIGNED_OUT_KEY = 'signedOut';

/** Where a page that needs a session sends a visitor without one: the message only when a session ran out. */
function loginFor(req: HostGuardRequest): string {
  return req.signedOut ? '/login' : `/login?${new URLSearchParams({ error: SESSION_EXPIRED_MESSAGE }).toString()}`;
}

/** Where /login forwards a signed-in user: the dashboard, or the pricing page a paid plan was chosen on. */
function signedInHome(search: string): string {
  return new URLSearchParams(search).get('redirect') === 'pricing' ? '/pricing' : '/dashboard';
}

/**
 * The decision for one page request:
 * - open pages are served on every host; `/` on the app (or dev) host goes to
 *   /dashboard with a session, else to /login; with no hosts configured it is
 *   the landing page for visitors and the dashboard for a signed-in user;
 * - /login, /signup and /verify live on the app (or dev) host only; /login
 *   forwards a signed-in user to the dashboard;
 * - /dashboard and /profile live on the app (or dev) host and need a session,
 *   else the session is cleared and the browser goes to /login with the
 *   session-expired message (without it after a sign-out of the user's own);
 *   /success and /cancel need a session;
 * - everything else (the social-login callback, unknown paths) is served.
 */
export function decideHostRoute(req: HostGuardRequest): HostDecision {
  const configured = hostsConfigured(req.hosts);
  const onAppSide = !configured || hostMatches(req.hosts.app, req.host) || hostMatches(req.hosts.dev, req.host);
  const appHost = req.hosts.app || req.hosts.dev;
  const elsewhere = (path: string) => `${req.protocol}://${appHost}${path}`;

  if (req.path === '/') {
    if (req.hasSession && onAppSide) return { kind: 'redirect', location: '/dashboard', clearSession: false };
    if (configured && onAppSide) return { kind: 'redirect', location: '/login', clearSession: false };
    return { kind: 'serve', page: 'landing' };
  }
  if (isOpenPath(req.path)) return { kind: 'serve', page: 'page' };
  if (isAuthPage(req.path)) {
    if (!onAppSide && appHost) return { kind: 'redirect', location: elsewhere(req.path + req.search), clearSession: false };
    if (req.path === '/login' && req.hasSession) return { kind: 'redirect', location: signedInHome(req.search), clearSession: false };
    return { kind: 'serve', page: 'page' };
  }
  if (isSessionPage(req.path)) {
    if (!onAppSide && appHost) return { kind: 'redirect', location: elsewhere(req.path + req.search), clearSession: false };
    if (!req.hasSession) return { kind: 'redirect', location: loginFor(req), clearSession: true };
    return { kind: 'serve', page: 'page' };
  }
  if (needsSessionOnly(req.path) && !req.hasSession) {
    const login = loginFor(req);
    return { kind: 'redirect', location: onAppSide || !appHost ? login : elsewhere(login), clearSession: true };
  }
  return { kind: 'serve', page: 'page' };
}

/** The expiry check of an identity token (a JWT) without verifying it: a navigation rule, not an authorization. */
export function isUnexpiredJwt(token: string | null | undefined, nowMs: number = Date.now()): boolean {
  const payload = token?.split('.')[1];
  if (!payload) return false;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))));
    const exp = claims && typeof claims === 'object' ? (claims as { exp?: unknown }).exp : undefined;
    return typeof exp === 'number' && exp * 1000 > nowMs;
  } catch {
    return false;
  }
}
