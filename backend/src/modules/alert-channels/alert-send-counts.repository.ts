import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { returnedRows } from '../../common/database/query-rows';

/** One count taken: the bucket's count with this one included, and the seconds left in its window. */
export interface TakenCount {
  key: string;
  sent: number;
  /** The window's start as the database wrote it (text keeps the microseconds a Date would drop). */
  windowStartedAt: string;
  retryAfterSeconds: number;
}

/**
 * Every SQL statement on `alert_send_counts`: sends (test alerts, verification
 * mails) counted per bucket in a fixed window. A count is taken by one
 * upsert that returns the new total, so concurrent requests each see a
 * distinct number and at most `limit` of them can be under the limit.
 */
@Injectable()
export class AlertSendCountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async take(key: string, windowSeconds: number): Promise<TakenCount> {
    const [row] = returnedRows<{ sent: number; window_started_at: string; remaining: number }>(
      await this.db.query(
        `INSERT INTO alert_send_counts (key, sent, window_started_at) VALUES ($1, 1, now())
         ON CONFLICT (key) DO UPDATE SET
           sent = CASE WHEN alert_send_counts.window_started_at <= now() - make_interval(secs => $2) THEN 1 ELSE alert_send_counts.sent + 1 END,
           window_started_at = CASE WHEN alert_send_counts.window_started_at <= now() - make_interval(secs => $2) THEN now() ELSE alert_send_counts.window_started_at END
         RETURNING sent, window_started_at::text AS window_started_at, EXTRACT(EPOCH FROM window_started_at + make_interval(secs => $2) - now())::float AS remaining`,
        [key, windowSeconds],
      ),
    );
    return { key, sent: row!.sent, windowStartedAt: row!.window_started_at, retryAfterSeconds: row!.remaining };
  }

  /** Gives back a count that led to nothing being sent, unless its window has ended meanwhile. */
  async giveBack(taken: TakenCount): Promise<void> {
    await this.db.query(`UPDATE alert_send_counts SET sent = sent - 1 WHERE key = $1 AND window_started_at = $2::timestamptz AND sent > 0`, [taken.key, taken.windowStartedAt]);
  }

  /** Ended windows are dead weight. */
  async deleteEnded(windowSeconds: number): Promise<void> {
    await this.db.query(`DELETE FROM alert_send_counts WHERE window_started_at <= now() - make_interval(secs => $1)`, [windowSeconds]);
  }
}
