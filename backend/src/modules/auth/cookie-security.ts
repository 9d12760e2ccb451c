import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/http/api-error';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Auth cookies are Secure whenever the service is published over https,
 * whatever Host a request arrived with (a proxy may forward any). With an
 * http PUBLIC_URL (development) they are Secure except on loopback hosts,
 * where browsers would drop a Secure cookie set over plain http.
 */
export function secureCookieFor(req: FastifyRequest, publicUrl: string): boolean {
  return new URL(publicUrl).protocol === 'https:' || !LOOPBACK_HOSTS.has(req.hostname);
}

/**
 * Defence in depth against cross-site requests to endpoints a cookie
 * authenticates (SameSite=Lax already keeps the cookie off cross-site POSTs):
 * a browser always sends Origin with a POST, and it must be the published
 * origin or the one the request itself was addressed to. Requests without
 * Origin come from non-browser clients, which hold no ambient cookie.
 */
export function assertSameOrigin(req: FastifyRequest, publicUrl: string): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  if (origin === new URL(publicUrl).origin) return;
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" (sandboxed or privacy-sensitive contexts) and garbage are refused below
  }
  if (originHost !== null && originHost === req.headers.host) return;
  throw ApiError.forbidden('Cross-site request refused: Origin does not match this service');
}

/** A cookie kept for `seconds`: Max-Age, and Expires for clients that only read that. */
export function cookieLifetime(seconds: number): { maxAge: number; expires: Date } {
  return { maxAge: seconds, expires: new Date(Date.now() + seconds * 1000) };
}
