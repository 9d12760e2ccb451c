import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthIntent, SocialProvider } from '@cronbeam/shared/auth/auth-schemas';
import { cookieLifetime, secureCookieFor } from '../cookie-security';

/** What the server must remember between sending the browser to the provider and its return. */
export interface SocialFlow {
  provider: SocialProvider;
  intent: AuthIntent;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The flow lives in an HttpOnly cookie of this browser: the `state` the
 * provider echoes must match it, which binds the returning code to the
 * browser that started the sign-in (no login CSRF), and the PKCE verifier
 * never leaves the server side of the browser's cookie jar.
 */
const COOKIE = 'cb_oauth_flow';
const COOKIE_PATH = '/api/auth';
const MAX_AGE_SECONDS = 10 * 60;

export function setSocialFlowCookie(req: FastifyRequest, reply: FastifyReply, flow: SocialFlow, publicUrl: string): void {
  reply.setCookie(COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
    httpOnly: true,
    secure: secureCookieFor(req, publicUrl),
    // Lax: sent on the same-site POST from /auth/callback, never on cross-site subrequests.
    sameSite: 'lax',
    path: COOKIE_PATH,
    ...cookieLifetime(MAX_AGE_SECONDS),
  });
}

export function clearSocialFlowCookie(reply: FastifyReply): void {
  reply.clearCookie(COOKIE, { path: COOKIE_PATH });
}

export function socialFlowOf(req: FastifyRequest): SocialFlow | null {
  const raw = req.cookies[COOKIE];
  if (typeof raw !== 'string') return null;
  try {
    const flow = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<SocialFlow>;
    return flow.state && flow.nonce && flow.codeVerifier && flow.provider && flow.intent ? (flow as SocialFlow) : null;
  } catch {
    return null;
  }
}
