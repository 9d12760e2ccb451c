import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_KEY_MESSAGES } from '@cronbeam/shared/jobs/api-key-types';
import { ApiError } from '../../common/http/api-error';
import { MemoryRateLimiter } from '../../common/rate-limit/memory-rate-limiter';
import { AppConfig } from '../../config/app-config';
import { clientIp, type AuthenticatedUser, type RequestWithUser } from '../auth';
import { accountRoleGuard } from '../auth/account-role.guard';
import { AuthAttemptsService, type AttemptKey, type AttemptReservation } from '../auth/throttling/auth-attempts.service';
import { UsersService } from '../auth/users.service';
import { ApiKeysService } from './api-keys.service';

/**
 * Guards the /prog API. Two ways to present a key:
 * - `X-API-Key: <key>` with `X-User-ID: <the key's account id>` (both required; the
 *   name predates accounts: for a personal account it is its user's id), or
 * - `Authorization: Bearer <key>`, as the guides show (X-User-ID optional, checked when sent).
 * Every failure answers the same 401 'Invalid API key', so callers cannot probe
 * which part was wrong. Each key is rate-limited (429 with Retry-After):
 * PROG_RATE_LIMIT calls per PROG_RATE_LIMIT_WINDOW_SECONDS, counted per
 * instance (in memory: a database write on every call would cost more than
 * the call), which bounds a key to limit × instances behind a load balancer.
 *
 * Failures are counted per client address like failed sign-ins (the same
 * AUTH_MAX_FAILURES_PER_IP per AUTH_THROTTLE_WINDOW_SECONDS, in the database
 * so it holds across instances); once an address has used them up, every
 * call from it is refused with 429 until the window ends, right key or not,
 * so a guesser cannot tell a hit from a miss. A secret this instance has not
 * seen valid lately reserves a failure before it is looked up (and gives it
 * back when it is valid), so a burst of guesses gets at most the limit of
 * look-ups. A key seen valid within the key cache's second (the hot path)
 * only reads the address's count: no write per call.
 *
 * The key acts in its account with its creator's current role there (read
 * on every call with the creator), and the role guard checks that role
 * against the route.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly users: UsersService,
    private readonly limiter: MemoryRateLimiter,
    private readonly attempts: AuthAttemptsService,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest & RequestWithUser>();
    const failures: AttemptKey[] = [{ key: `prog-key:ip:${clientIp(req)}`, limit: this.config.env.AUTH_MAX_FAILURES_PER_IP }];
    const headerKey = (req.headers['x-api-key'] as string | undefined)?.trim();
    const bearerKey = /^Bearer\s+(\S+)$/i.exec((req.headers['authorization'] as string | undefined) ?? '')?.[1];
    const claimedUserId = (req.headers['x-user-id'] as string | undefined)?.trim();
    const secret = headerKey || bearerKey;

    if (!secret || (headerKey && !claimedUserId)) {
      // Nothing to check is not a guess: answered, not counted.
      await this.attempts.assertNotFull(failures, API_KEY_MESSAGES.tooManyFailures);
      throw ApiError.unauthorized(API_KEY_MESSAGES.invalidKey);
    }
    let reservation: AttemptReservation | null = null;
    if (this.keys.isRecentlyValid(secret)) await this.attempts.assertNotFull(failures, API_KEY_MESSAGES.tooManyFailures);
    else reservation = await this.attempts.reserve(failures, API_KEY_MESSAGES.tooManyFailures);
    const refuse = async (): Promise<never> => {
      // A failure on the hot path has reserved nothing yet: it counts now (and may find the address's attempts used up).
      if (!reservation) await this.attempts.reserve(failures, API_KEY_MESSAGES.tooManyFailures);
      throw ApiError.unauthorized(API_KEY_MESSAGES.invalidKey);
    };

    const key = await this.keys.authenticate(secret);
    if (!key || (claimedUserId && claimedUserId !== key.accountId)) return refuse();
    // The key acts in its account with its creator's role there now: a creator no longer a member holds no key.
    // A key from before accounts was made by its personal account's user; a key whose creator was deleted has none.
    const accountId = key.accountId;
    const user = key.createdBy ? await this.users.findCallerIn(key.createdBy, accountId) : null;
    if (!user?.role) return refuse();
    if (reservation) await this.attempts.giveBack(reservation);

    await this.limiter.take([
      {
        key: `prog-calls:key:${key.keyId}`,
        limit: this.config.env.PROG_RATE_LIMIT,
        windowSeconds: this.config.env.PROG_RATE_LIMIT_WINDOW_SECONDS,
        message: 'Rate limit exceeded for this API key; retry later',
      },
    ]);

    const authenticated: AuthenticatedUser = { id: user.id, email: user.email, via: 'api_key', accountId, role: user.role, keyId: key.keyId };
    req.user = authenticated;
    return accountRoleGuard.canActivate(context);
  }
}
