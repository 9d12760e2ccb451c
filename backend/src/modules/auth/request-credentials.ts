import type { FastifyRequest } from 'fastify';

/** The raw bearer token of a request that passed BearerAuthGuard (Cognito needs it for calls on the user's behalf). */
export function bearerTokenOf(req: FastifyRequest): string {
  return (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
}

/**
 * The caller's address for per-address limits: the socket's, or behind
 * trusted proxies (TRUST_PROXY: a hop count or their addresses) the address
 * the nearest trusted proxy saw, i.e. the right-most X-Forwarded-For entry no
 * trusted proxy wrote. Never an address the client wrote itself.
 */
export function clientIp(req: FastifyRequest): string {
  return req.ip;
}

/** Where a request came from, as an audit entry of what it changed records it: the client's address and the request's id. */
export interface RequestOrigin {
  ip: string;
  requestId: string | null;
}

export function requestOrigin(req: FastifyRequest): RequestOrigin {
  return { ip: clientIp(req), requestId: req.id ?? null };
}
