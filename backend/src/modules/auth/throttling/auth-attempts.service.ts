import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AUTH_MESSAGES } from '@shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';

/** A throttling bucket: failures counted per account or per client address. */
export interface AttemptKey {
  key: string;
  limit: number;
}

/**
 * Counts failed credential checks (passwords and e-mailed codes) per account
 * and per client IP in a fixed window kept in the database, so the limit
 * holds across instances and restarts. Once a bucket is full every attempt,
 * right or wrong, is refused with 'Password attempts exceeded' until the
 * window ends.
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

  /** Refuses (429 with Retry-After) when any bucket is full; `message` names what was throttled. */
  async assertAllowed(keys: AttemptKey[], message: string = AUTH_MESSAGES.passwordAttemptsExceeded): Promise<void> {
    const rows: Array<{ key: string; failures: number; remaining: number }> = await this.db.query(
      `SELECT key, failures,
              EXTRACT(EPOCH FROM window_started_at + make_interval(secs => $2) - now())::float AS remaining
         FROM auth_attempts
        WHERE key = ANY($1) AND window_started_at > now() - make_interval(secs => $2)`,
      [keys.map((k) => k.key), this.windowSeconds],
    );
    for (const row of rows) {
      const limit = keys.find((k) => k.key === row.key)!.limit;
      if (row.failures >= limit) throw ApiError.tooManyRequests(message, row.remaining);
    }
  }

  /** Counts one event against each bucket (a failed check, or a mail sent on request). */
  async count(keys: AttemptKey[]): Promise<void> {
    for (const { key } of keys) {
      await this.db.query(
        `INSERT INTO auth_attempts (key, failures, window_started_at) VALUES ($1, 1, now())
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN auth_attempts.window_started_at <= now() - make_interval(secs => $2)
                           THEN 1 ELSE auth_attempts.failures + 1 END,
           window_started_at = CASE WHEN auth_attempts.window_started_at <= now() - make_interval(secs => $2)
                                    THEN now() ELSE auth_attempts.window_started_at END`,
        [key, this.windowSeconds],
      );
    }
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
