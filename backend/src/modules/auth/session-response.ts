import type { Request, Response } from 'express';
import type { TokenResponse } from '@shared/auth/auth-schemas';
import type { AppConfig } from '../../config/app-config';
import type { TokenSet } from './identity-provider';
import { setRefreshCookie } from './refresh-cookie';

/** The answer of login, refresh and social-login: the tokens in the body, the refresh token also in its HttpOnly cookie. */
export function sessionResponse(req: Request, res: Response, tokens: TokenSet, config: AppConfig): TokenResponse {
  setRefreshCookie(req, res, tokens.refreshToken, config.env.AUTH_REFRESH_TOKEN_TTL_DAYS);
  return {
    access_token: tokens.accessToken,
    id_token: tokens.idToken,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    token_type: 'Bearer',
  };
}
