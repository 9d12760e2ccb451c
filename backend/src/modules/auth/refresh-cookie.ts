import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/app-config';
import { cookieLifetime, secureCookieFor } from './cookie-security';

/** The HttpOnly cookie holding the refresh token for browsers (never readable by scripts). */
export const REFRESH_COOKIE = 'cb_refresh';
/** Only the auth endpoints need it, so it is not sent with every API call. */
const COOKIE_PATH = '/api/auth';

function cookieOptions(req: FastifyRequest, config: AppConfig): CookieSerializeOptions {
  return {
    httpOnly: true,
    secure: secureCookieFor(req, config.publicUrl),
    sameSite: 'lax',
    path: COOKIE_PATH,
  };
}

export function setRefreshCookie(req: FastifyRequest, reply: FastifyReply, refreshToken: string, config: AppConfig): void {
  reply.setCookie(REFRESH_COOKIE, refreshToken, { ...cookieOptions(req, config), ...cookieLifetime(config.env.AUTH_REFRESH_TOKEN_TTL_DAYS * 86_400) });
}

export function clearRefreshCookie(req: FastifyRequest, reply: FastifyReply, config: AppConfig): void {
  reply.clearCookie(REFRESH_COOKIE, cookieOptions(req, config));
}

export function refreshCookieOf(req: FastifyRequest): string | undefined {
  const value = req.cookies[REFRESH_COOKIE];
  return typeof value === 'string' && value ? value : undefined;
}
