import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AUTH_MESSAGES } from '@shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';

/** A throttling bucket: attempts counted per account or per client address. */
export interface AttemptKey {
  key: string;
  limit: number;
}

/** Attempts taken by reserve(): each bucket's window start (as text, to the microsecond), so a give-back never lands in a later window. */
export interface AttemptReservation {
  keys: AttemptKey[];
  windows: Map<string, string>;
}

interface CountedRow {
  key: string;
  failures: number;
  window_started_at: string;
  remaining: number;
}

/**
 * Counts attempts (checks of a password or an e-mailed code, mails sent on
 * request, sign-ups) per account and per client address in a fixed window
 * kept in the database, so the limit holds across instances and restarts.
 *
 * An attempt is reserved BEFORE the check it pays for: one statement adds it
 * to every bucket and answers the new counts, and the attempt goes ahead only
 * if no count passed its limit. Concurrent attempts therefore cannot all read
 * "below the limit" and all be checked: at most `limit` checks run per bucket
 * and window, however many arrive at once. An attempt that turns out not to
 * be a guess (a success, an unknown session) gives its reservation back.
 * Once a bucket is full every attempt, right or wrong, is refused with 429
 * until the window ends.
 */
@Injectable()
export class AuthAttemptsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AuthAttemptsService.name);
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  private get windowSeconds(): number {
    return this.config.env.AUTH_THROTTLE_WINDOW_SECONDS;
  }

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

  /**
   * Takes one attempt from every bucket, atomically; when any bucket is then
   * over its limit, gives them all back and refuses (429 with Retry-After,
   * `message` naming what was throttled).
   */
  async reserve(keys: AttemptKey[], message: string = AUTH_MESSAGES.passwordAttemptsExceeded): Promise<AttemptReservation> {
    // Keys in a fixed order (by code unit, the same on every instance): two reservations over the same buckets lock their rows in the same order (no deadlock).
    const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const rows: CountedRow[] = await this.db.query(
      `INSERT INTO auth_attempts AS a (key, failures, window_started_at)
       SELECT k, 1, now() FROM unnest($1::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN a.window_started_at <= now() - make_interval(secs => $2) THEN 1 ELSE a.failures + 1 END,
         window_started_at = CASE WHEN a.window_started_at <= now() - make_interval(secs => $2) THEN now() ELSE a.window_started_at END
       RETURNING key, failures, window_started_at::text AS window_started_at,
                 EXTRACT(EPOCH FROM window_started_at + make_interval(secs => $2) - now())::float AS remaining`,
      [sorted.map((k) => k.key), this.windowSeconds],
    );
    const reservation: AttemptReservation = { keys: sorted, windows: new Map(rows.map((r) => [r.key, r.window_started_at])) };
    const full = rows.filter((row) => row.failures > sorted.find((k) => k.key === row.key)!.limit);
    if (full.length > 0) {
      await this.giveBack(reservation);
      throw ApiError.tooManyRequests(message, Math.max(...full.map((row) => row.remaining)));
    }
    return reservation;
  }

  /** Refuses (429) when any bucket is full, without taking an attempt: for callers that are not guessing. */
  async assertNotFull(keys: AttemptKey[], message: string): Promise<void> {
    const rows: Array<{ key: string; failures: number; remaining: number }> = await this.db.query(
      `SELECT key, failures,
              EXTRACT(EPOCH FROM window_started_at + make_interval(secs => $2) - now())::float AS remaining
         FROM auth_attempts
        WHERE key = ANY($1) AND window_started_at > now() - make_interval(secs => $2)`,
      [keys.map((k) => k.key), this.windowSeconds],
    );
    for (const row of rows) {
      if (row.failures >= keys.find((k) => k.key === row.key)!.limit) throw ApiError.tooManyRequests(message, row.remaining);
    }
  }

  /** Gives the reserved attempts back (in the window they were taken in; a later window keeps its count). */
  async giveBack(reservation: AttemptReservation, keys: AttemptKey[] = reservation.keys): Promise<void> {
    const taken = keys.filter((k) => reservation.windows.has(k.key));
    if (taken.length === 0) return;
    await this.db.query(
      `UPDATE auth_attempts a SET failures = greatest(a.failures - 1, 0)
         FROM unnest($1::text[], $2::timestamptz[]) AS t(key, window_started_at)
        WHERE a.key = t.key AND a.window_started_at = t.window_started_at`,
      [taken.map((k) => k.key), taken.map((k) => reservation.windows.get(k.key)!)],
    );
  }

  /** A success clears the account's count (the address keeps its count: it may be guessing many accounts). */
  async clear(key: AttemptKey): Promise<void> {
    await this.db.query(`DELETE FROM auth_attempts WHERE key = $1`, [key.key]);
  }

  onModuleInit(): void {
    this.sweeper = setInterval(() => void this.sweep(), Math.max(this.windowSeconds, 60) * 1000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** Ended windows are dead weight. */
  private async sweep(): Promise<void> {
    await this.db
      .query(`DELETE FROM auth_attempts WHERE window_started_at <= now() - make_interval(secs => $1)`, [this.windowSeconds])
      .catch((err: unknown) => this.logger.warn({ err }, 'Could not sweep ended throttling windows'));
  }
}
