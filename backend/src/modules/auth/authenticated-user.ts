import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';

/** Who is calling: set on the request by the auth guards (bearer JWT or API key). */
export interface AuthenticatedUser {
  id: string;
  email: string;
  /** How the caller proved who they are. */
  via: 'jwt' | 'api_key';
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
