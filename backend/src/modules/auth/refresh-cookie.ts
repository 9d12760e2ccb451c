import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { secureCookieFor } from './cookie-security';

/** The HttpOnly cookie holding the refresh token for browsers (never readable by scripts). */
export const REFRESH_COOKIE = 'cb_refresh';
/** Only the auth endpoints need it, so it is not sent with every API call. */
const COOKIE_PATH = '/api/auth';

function cookieOptions(req: Request, config: AppConfig): CookieOptions {
  return {
    httpOnly: true,
    secure: secureCookieFor(req, config.publicUrl),
    sameSite: 'lax',
    path: COOKIE_PATH,
  };
}

export function setRefreshCookie(req: Request, res: Response, refreshToken: string, config: AppConfig): void {
  res.cookie(REFRESH_COOKIE, refreshToken, { ...cookieOptions(req, config), maxAge: config.env.AUTH_REFRESH_TOKEN_TTL_DAYS * 86_400_000 });
}

export function clearRefreshCookie(req: Request, res: Response, config: AppConfig): void {
  res.clearCookie(REFRESH_COOKIE, cookieOptions(req, config));
}

export function refreshCookieOf(req: Request): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
  return typeof value === 'string' && value ? value : undefined;
}
