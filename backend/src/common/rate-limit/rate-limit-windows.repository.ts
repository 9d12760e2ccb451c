import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CountedBucket } from './rate-limit';

/** A bucket's count as stored: its window's start as text, to the microsecond a Date would drop. */
export interface StoredCount extends CountedBucket {
  windowStartedAt: string;
}

/** Every SQL statement on `rate_limit_windows`, one per function: fixed windows of counted requests, one row per bucket. */
@Injectable()
export class RateLimitWindowsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Adds one to every bucket (a window that has ended starts afresh at 1) in
   * one statement, rows locked in the order given, and answers the new counts:
   * concurrent takes each see a distinct total.
   */
  async add(keys: string[], windowSeconds: number[]): Promise<StoredCount[]> {
    const rows: Array<{ key: string; count: number; window_started_at: string; remaining: number }> = await this.db.query(
      `INSERT INTO rate_limit_windows AS w (key, count, window_started_at, window_seconds)
       SELECT k, 1, now(), s FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS t(k, s, n) ORDER BY n
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN w.window_started_at <= now() - make_interval(secs => EXCLUDED.window_seconds) THEN 1 ELSE w.count + 1 END,
         window_started_at = CASE WHEN w.window_started_at <= now() - make_interval(secs => EXCLUDED.window_seconds) THEN now() ELSE w.window_started_at END,
         window_seconds = EXCLUDED.window_seconds
       RETURNING key, count, window_started_at::text AS window_started_at,
                 EXTRACT(EPOCH FROM window_started_at + make_interval(secs => window_seconds) - now())::float AS remaining`,
      [keys, windowSeconds],
    );
    return rows.map((r) => ({ key: r.key, count: r.count, windowStartedAt: r.window_started_at, retryAfterSeconds: r.remaining }));
  }

  /** The counts of the buckets whose window is still open. */
  async current(keys: string[]): Promise<CountedBucket[]> {
    const rows: Array<{ key: string; count: number; remaining: number }> = await this.db.query(
      `SELECT key, count, EXTRACT(EPOCH FROM window_started_at + make_interval(secs => window_seconds) - now())::float AS remaining
         FROM rate_limit_windows
        WHERE key = ANY($1::text[]) AND window_started_at > now() - make_interval(secs => window_seconds)`,
      [keys],
    );
    return rows.map((r) => ({ key: r.key, count: r.count, retryAfterSeconds: r.remaining }));
  }

  /** Takes one from each bucket, in the window given (a window started since keeps its count). */
  async subtract(keys: string[], windowStartedAt: string[]): Promise<void> {
    await this.db.query(
      `UPDATE rate_limit_windows w SET count = greatest(w.count - 1, 0)
         FROM unnest($1::text[], $2::timestamptz[]) AS t(key, window_started_at)
        WHERE w.key = t.key AND w.window_started_at = t.window_started_at`,
      [keys, windowStartedAt],
    );
  }

  async delete(key: string): Promise<void> {
    await this.db.query(`DELETE FROM rate_limit_windows WHERE key = $1`, [key]);
  }

  /** Ended windows are dead weight. */
  async deleteEnded(): Promise<void> {
    await this.db.query(`DELETE FROM rate_limit_windows WHERE window_started_at <= now() - make_interval(secs => window_seconds)`);
  }
}
