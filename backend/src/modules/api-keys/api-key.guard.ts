import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { API_KEY_MESSAGES } from '@shared/jobs/api-key-types';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';
import { clientIp, type AuthenticatedUser, type RequestWithUser } from '../auth';
import { AuthAttemptsService, type AttemptKey } from '../auth/throttling/auth-attempts.service';
import { UsersService } from '../auth/users.service';
import { ApiKeyRateLimiter } from './api-key-rate-limiter';
import { ApiKeysService } from './api-keys.service';

/**
 * Guards the /prog API. Two ways to present a key:
 * - `X-API-Key: <key>` with `X-User-ID: <owner's user id>` (both required), or
 * - `Authorization: Bearer <key>`, as the guides show (X-User-ID optional, checked when sent).
 * Every failure answers the same 401 'Invalid API key', so callers cannot probe
 * which part was wrong. Each key is rate-limited (429 with Retry-After).
 * Failures are counted per client address like failed sign-ins (the same
 * AUTH_MAX_FAILURES_PER_IP per AUTH_THROTTLE_WINDOW_SECONDS, in the database
 * so it holds across instances); once an address has used them up, every
 * call from it is refused with 429 until the window ends, right key or not,
 * so a guesser cannot tell a hit from a miss.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly users: UsersService,
    private readonly limiter: ApiKeyRateLimiter,
    private readonly attempts: AuthAttemptsService,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request & RequestWithUser>();
    const failures: AttemptKey[] = [{ key: `prog-key:ip:${clientIp(req)}`, limit: this.config.env.AUTH_MAX_FAILURES_PER_IP }];
    await this.attempts.assertAllowed(failures, API_KEY_MESSAGES.tooManyFailures);
    const refuse = async (): Promise<never> => {
      await this.attempts.count(failures);
      throw ApiError.unauthorized(API_KEY_MESSAGES.invalidKey);
    };

    const headerKey = req.header('x-api-key')?.trim();
    const bearerKey = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1];
    const claimedUserId = req.header('x-user-id')?.trim();
    const secret = headerKey || bearerKey;
    // Nothing to check is not a guess: answered, not counted.
    if (!secret || (headerKey && !claimedUserId)) throw ApiError.unauthorized(API_KEY_MESSAGES.invalidKey);

    const key = await this.keys.authenticate(secret);
    if (!key || (claimedUserId && claimedUserId !== key.userId)) return refuse();
    const user = await this.users.findCaller(key.userId);
    if (!user) return refuse();

    const retryAfter = this.limiter.consume(key.keyId);
    if (retryAfter !== null) throw ApiError.tooManyRequests('Rate limit exceeded for this API key; retry later', retryAfter);

    const authenticated: AuthenticatedUser = { id: user.id, email: user.email, via: 'api_key' };
    req.user = authenticated;
    return true;
  }
}
