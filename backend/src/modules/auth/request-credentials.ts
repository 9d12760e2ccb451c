import type { Request } from 'express';

/** The raw bearer token of a request that passed BearerAuthGuard (Cognito needs it for calls on the user's behalf). */
export function bearerTokenOf(req: Request): string {
  return (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
}

/** The caller's address for throttling (X-Forwarded-For only when TRUST_PROXY is on). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
