import { Injectable } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { ErrorDetail } from '../../../common/http/api-error';
import { DatabaseRateLimiter } from '../../../common/rate-limit/database-rate-limiter';
import type { RateLimitBucket, TakenCount } from '../../../common/rate-limit/rate-limit';
import { AppConfig } from '../../../config/app-config';

/** A throttling bucket: attempts counted per account or per client address. */
export interface AttemptKey {
  key: string;
  limit: number;
}

/** Attempts taken by reserve(), to give back. */
export type AttemptReservation = TakenCount[];

/**
 * Counts attempts (checks of a password or an e-mailed code, mails sent on
 * request, sign-ups, API key look-ups) per account and per client address,
 * in the database rate limiter: the limit holds across instances and restarts.
 *
 * An attempt is reserved BEFORE the check it pays for, so concurrent attempts
 * cannot all read "below the limit" and all be checked: at most `limit`
 * checks run per bucket and window, however many arrive at once. An attempt
 * that turns out not to be a guess (a success, an unknown session) gives its
 * reservation back. Once a bucket is full every attempt, right or wrong, is
 * refused with 429 until the window ends.
 */
@Injectable()
export class AuthAttemptsService {
  constructor(
    private readonly config: AppConfig,
    private readonly limiter: DatabaseRateLimiter,
  ) {}

  /** Buckets for one credential check: the account (by email) and the caller's address. */
  keysFor(scope: string, email: string, ip: string): AttemptKey[] {
    return [
      { key: `${scope}:account:${email.trim().toLowerCase()}`, limit: this.config.env.AUTH_MAX_FAILURES_PER_ACCOUNT },
      { key: `${scope}:ip:${ip}`, limit: this.config.env.AUTH_MAX_FAILURES_PER_IP },
    ];
  }

  /** The bucket of sign-ups from one client address. */
  signUpKey(ip: string): AttemptKey {
    return { key: `signup:ip:${ip}`, limit: this.config.env.AUTH_MAX_SIGNUPS_PER_IP };
  }

  /** Takes one attempt from every bucket, all or none; refuses with 429 (Retry-After, `message` naming what was throttled) when any is full. */
  reserve(keys: AttemptKey[], message: ErrorDetail = AUTH_MESSAGES.passwordAttemptsExceeded): Promise<AttemptReservation> {
    return this.limiter.take(this.buckets(keys, message));
  }

  /** Refuses (429) when any bucket is full, without taking an attempt: for callers that are not guessing. */
  assertNotFull(keys: AttemptKey[], message: ErrorDetail): Promise<void> {
    return this.limiter.assertNotFull(this.buckets(keys, message));
  }

  /** Gives the reserved attempts back (all, or those of `keys`), in the window they were taken in. */
  giveBack(reservation: AttemptReservation, keys?: AttemptKey[]): Promise<void> {
    const wanted = keys ? new Set(keys.map((k) => k.key)) : null;
    return this.limiter.giveBack(wanted ? reservation.filter((t) => wanted.has(t.key)) : reservation);
  }

  /** A success clears the account's count (the address keeps its count: it may be guessing many accounts). */
  clear(key: AttemptKey): Promise<void> {
    return this.limiter.clear(key.key);
  }

  private buckets(keys: AttemptKey[], message: ErrorDetail): RateLimitBucket[] {
    return keys.map((k) => ({ ...k, windowSeconds: this.config.env.AUTH_THROTTLE_WINDOW_SECONDS, message }));
  }
}
