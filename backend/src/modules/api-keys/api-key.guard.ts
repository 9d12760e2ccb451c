import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { API_KEY_MESSAGES } from '@shared/jobs/api-key-types';
import { ApiError } from '../../common/http/api-error';
import type { AuthenticatedUser, RequestWithUser } from '../auth';
import { UsersService } from '../auth/users.service';
import { ApiKeyRateLimiter } from './api-key-rate-limiter';
import { ApiKeysService } from './api-keys.service';

/**
 * Guards the /prog API. Two ways to present a key:
 * - `X-API-Key: <key>` with `X-User-ID: <owner's user id>` (both required), or
 * - `Authorization: Bearer <key>`, as the guides show (X-User-ID optional, checked when sent).
 * Every failure answers the same 401 'Invalid API key', so callers cannot probe
 * which part was wrong. Each key is rate-limited (429 with Retry-After).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly users: UsersService,
    private readonly limiter: ApiKeyRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request & RequestWithUser>();
    const headerKey = req.header('x-api-key')?.trim();
    const bearerKey = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1];
    const claimedUserId = req.header('x-user-id')?.trim();
    const secret = headerKey || bearerKey;
    if (!secret || (headerKey && !claimedUserId)) throw ApiError.unauthorized(API_KEY_MESSAGES.invalidKey);

    const key = await this.keys.authenticate(secret);
    if (!key || (claimedUserId && claimedUserId !== key.userId)) throw ApiError.unauthorized(API_KEY_MESSAGES.invalidKey);
    const user = await this.users.findById(key.userId);
    if (!user) throw ApiError.unauthorized(API_KEY_MESSAGES.invalidKey);

    const retryAfter = this.limiter.consume(key.keyId);
    if (retryAfter !== null) throw ApiError.tooManyRequests('Rate limit exceeded for this API key; retry later', retryAfter);

    const authenticated: AuthenticatedUser = { id: user.id, email: user.email, via: 'api_key' };
    req.user = authenticated;
    return true;
  }
}
