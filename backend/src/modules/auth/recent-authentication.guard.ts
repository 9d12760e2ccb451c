import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { AUTH_MESSAGES, REAUTHENTICATION_REQUIRED } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';
import type { RequestWithUser } from './authenticated-user';

/**
 * `@UseGuards(RecentAuthenticationGuard)` after the bearer guard: the
 * session must have proved a credential (password, second factor, social
 * sign-in) within AUTH_REAUTHENTICATION_MAX_AGE_SECONDS. A stolen access or
 * refresh token alone then cannot mint an API key (which outlives the
 * session), delete the account, or enrol an authenticator that locks the
 * owner out. Refreshing keeps the sign-in's time, so it does not count.
 *
 * Refused with 403 (a 401 would make clients sign the user out) and a
 * machine-readable `code`; POST /api/auth/reauthenticate (or a new social
 * sign-in) gives fresh tokens.
 */
@Injectable()
export class RecentAuthenticationGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const user = context.switchToHttp().getRequest<RequestWithUser>().user;
    const maxAge = this.config.env.AUTH_REAUTHENTICATION_MAX_AGE_SECONDS;
    const authenticatedAt = user?.authenticatedAt;
    if (user?.via === 'jwt' && authenticatedAt !== undefined && Date.now() / 1000 - authenticatedAt <= maxAge) return true;
    throw ApiError.forbidden({ error: AUTH_MESSAGES.reauthenticationRequired, code: REAUTHENTICATION_REQUIRED, max_age_seconds: maxAge });
  }
}
