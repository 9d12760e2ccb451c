import { type CanActivate, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ACCOUNT_ROLES, roleAtLeast, type AccountRole } from '@cronbeam/shared/accounts/roles';
import { ACCOUNT_MESSAGES, roleRefusal } from '@cronbeam/shared/accounts/account-messages';
import { ApiError } from '../../common/http/api-error';
import type { RequestWithUser } from './authenticated-user';

const ROUTE_ROLE = 'cronbeam:route-role';

/**
 * What a route asks of the caller's role in the account it acts in, or
 * 'user' for a route about the signed-in user themself rather than an
 * account (their sign-in, profile, second factor, own deletion, the list
 * of their accounts, accepting an invitation): no membership is needed.
 */
export type RouteRole = AccountRole | 'user';

/** `@MinimumRole('admin')` on a handler or a controller: the least role that may call it. */
export const MinimumRole = (role: AccountRole) => SetMetadata(ROUTE_ROLE, role);

/** `@UserRoute()`: the route is about the signed-in user, not the account (no role is checked). */
export const UserRoute = () => SetMetadata(ROUTE_ROLE, 'user' satisfies RouteRole);

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The role a route asks for: its own mark, else its controller's, else by
 * method (a read needs a viewer, a change an editor). `method` is the HTTP
 * method, upper case.
 */
export function routeRole(handler: object, controller: object, method: string): RouteRole {
  const marked = (Reflect.getMetadata(ROUTE_ROLE, handler) ?? Reflect.getMetadata(ROUTE_ROLE, controller)) as RouteRole | undefined;
  return marked ?? (READS.has(method.toUpperCase()) ? 'viewer' : 'editor');
}

export function isRouteRole(value: unknown): value is RouteRole {
  return value === 'user' || (ACCOUNT_ROLES as readonly unknown[]).includes(value);
}

/**
 * The one role check of /api and /prog. Both authenticating guards (bearer
 * and API key) end with it, after they set req.user, so no authenticated
 * route can miss it and it runs before any body is validated. A caller who
 * is not a member of the account they named is told the account is not
 * found, whether it exists or not.
 */
export class AccountRoleGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<RequestWithUser & { method: string }>();
    const needed = routeRole(context.getHandler(), context.getClass(), req.method);
    if (needed === 'user') return true;
    const role = req.user?.role ?? null;
    if (role === null) throw ApiError.notFound(ACCOUNT_MESSAGES.accountNotFound);
    if (!roleAtLeast(role, needed)) throw ApiError.forbidden(roleRefusal(role));
    return true;
  }
}

export const accountRoleGuard = new AccountRoleGuard();
