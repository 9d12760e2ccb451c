import type { CookieOptions, Request, Response } from 'express';

/** The HttpOnly cookie holding the refresh token for browsers (never readable by scripts). */
export const REFRESH_COOKIE = 'cb_refresh';
/** Only the auth endpoints need it, so it is not sent with every API call. */
const COOKIE_PATH = '/api/auth';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function cookieOptions(req: Request): CookieOptions {
  return {
    httpOnly: true,
    // Browsers refuse Secure cookies over plain http, which is what localhost development uses.
    secure: !LOOPBACK_HOSTS.has(req.hostname),
    sameSite: 'lax',
    path: COOKIE_PATH,
  };
}

export function setRefreshCookie(req: Request, res: Response, refreshToken: string, maxAgeDays: number): void {
  res.cookie(REFRESH_COOKIE, refreshToken, { ...cookieOptions(req), maxAge: maxAgeDays * 86_400_000 });
}

export function clearRefreshCookie(req: Request, res: Response): void {
  res.clearCookie(REFRESH_COOKIE, cookieOptions(req));
}

export function refreshCookieOf(req: Request): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
  return typeof value === 'string' && value ? value : undefined;
}
