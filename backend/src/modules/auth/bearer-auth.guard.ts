import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../common/http/api-error';
import type { AuthenticatedUser } from './authenticated-user';
import { JWT_STRATEGY } from './jwt.strategy';

/**
 * `@UseGuards(BearerAuthGuard)`: requires `Authorization: Bearer <access token>`
 * and sets req.user. No token answers 401 'Authentication required'; a token
 * that fails verification answers 401 'Invalid or expired token'.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard(JWT_STRATEGY) {
  override handleRequest<TUser = AuthenticatedUser>(err: unknown, user: TUser | false, info: unknown): TUser {
    // Errors from validate() (ApiError or a database failure) pass through as they are.
    if (err) throw err;
    if (user) return user;
    const noToken = info instanceof Error && info.message === 'No auth token';
    throw ApiError.unauthorized(noToken ? AUTH_MESSAGES.authenticationRequired : AUTH_MESSAGES.invalidToken);
  }
}
