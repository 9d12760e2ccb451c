import type { Request } from 'express';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Auth cookies are Secure, except on localhost, where development runs over plain http and browsers would drop them. */
export function secureCookieFor(req: Request): boolean {
  return !LOOPBACK_HOSTS.has(req.hostname);
}
