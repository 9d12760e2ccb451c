import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import type { SignInResponse } from '@cronbeam/shared/auth/mfa-schemas';
import { ApiError } from '../../common/http/api-error';
import type { AppConfig } from '../../config/app-config';
import type { SignInResult, TokenSet } from './identity-provider';
import { setRefreshCookie } from './refresh-cookie';

/** The answer of login, refresh and social-login: the tokens in the body, the refresh token also in its HttpOnly cookie. */
export function sessionResponse(req: FastifyRequest, res: FastifyReply, tokens: TokenSet, config: AppConfig): TokenResponse {
  setRefreshCookie(req, res, tokens.refreshToken, config);
  return {
    access_token: tokens.accessToken,
    id_token: tokens.idToken,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    token_type: 'Bearer',
  };
}

/**
 * The answer of a sign-in step: the session, or the next challenge. A device
 * key the server does not know answers 404 'Device does not exist.', on which
 * the client drops its device data and signs in again without it.
 */
export function signInResponse(req: FastifyRequest, res: FastifyReply, result: SignInResult, config: AppConfig): SignInResponse {
  if (result.kind === 'device_unknown') throw ApiError.notFound(AUTH_MESSAGES.deviceNotFound);
  if (result.kind === 'challenge') {
    return {
      challenge: result.challenge,
      session: result.session,
      ...(result.secret ? { secret: result.secret, otpauth_uri: result.otpauthUri } : {}),
      ...(result.username ? { username: result.username } : {}),
    };
  }
  const tokens = sessionResponse(req, res, result.tokens, config);
  return result.deviceKey ? { ...tokens, device_key: result.deviceKey } : tokens;
}
