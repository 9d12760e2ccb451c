import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../common/http/api-error';
import { accountRoleGuard } from './account-role.guard';
import type { AuthenticatedUser } from './authenticated-user';
import { JWT_STRATEGY } from './jwt.strategy';

/**
 * `@UseGuards(BearerAuthGuard)`: requires `Authorization: Bearer <access token>`
 * and sets req.user. No token answers 401 'Authentication required'; a token
 * that fails verification answers 401 'Invalid or expired token'. Then the
 * role guard checks the caller's role in the account the request acts in.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard(JWT_STRATEGY) {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    return accountRoleGuard.canActivate(context);
  }

  override handleRequest<TUser = AuthenticatedUser>(err: unknown, user: TUser | false, info: unknown): TUser {
    // Errors from validate() (ApiError or a database failure) pass through as they are.
    if (err) throw err;
    if (user) return user;
    const noToken = info instanceof Error && info.message === 'No auth token';
    throw ApiError.unauthorized(noToken ? AUTH_MESSAGES.authenticationRequired : AUTH_MESSAGES.invalidToken);
  }
}
