import type { CookieOptions, Request, Response } from 'express';
import { secureCookieFor } from './cookie-security';

/** The HttpOnly cookie holding the refresh token for browsers (never readable by scripts). */
export const REFRESH_COOKIE = 'cb_refresh';
/** Only the auth endpoints need it, so it is not sent with every API call. */
const COOKIE_PATH = '/api/auth';

function cookieOptions(req: Request): CookieOptions {
  return {
    httpOnly: true,
    secure: secureCookieFor(req),
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
