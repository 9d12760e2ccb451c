import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AccountRole } from '@cronbeam/shared/accounts/roles';
import { ApiError } from '../../common/http/api-error';

/** Who is calling: set on the request by the auth guards (bearer JWT or API key). */
export interface AuthenticatedUser {
  id: string;
  email: string;
  /** How the caller proved who they are. */
  via: 'jwt' | 'api_key';
  /**
   * The account the request acts in: everything it reads or changes is
   * scoped by this id. A user's personal account has the user's own id.
   */
  accountId: string;
  /**
   * The caller's role in that account; null when a session names an account
   * it is not a member of, which the role guard lets through only to routes
   * about the user themself (those never read accountId).
   */
  role: AccountRole | null;
  /** API keys: the key that was presented (the audit log's actor). */
  keyId?: string;
  /** Bearer tokens: when the access token was issued (seconds since the epoch). */
  tokenIssuedAt?: number;
  /**
   * Bearer tokens: when the user last proved a credential (password, second
   * factor or social sign-in) in the session the token belongs to, in seconds
   * since the epoch (the token's `auth_time`; refreshing keeps it).
   */
  authenticatedAt?: number;
}

export interface RequestWithUser {
  user?: AuthenticatedUser;
}

/** `@CurrentUser() user: AuthenticatedUser` in a controller behind an auth guard. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthenticatedUser => {
  const user = ctx.switchToHttp().getRequest<RequestWithUser>().user;
  if (!user) throw ApiError.unauthorized('User is not authenticated');
  return user;
});
