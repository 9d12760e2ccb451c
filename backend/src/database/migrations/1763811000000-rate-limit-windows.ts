import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One table for every rate limit that must hold across instances and
 * restarts (`rate_limit_windows`, behind common/rate-limit): it replaces
 * `auth_attempts` (credential checks, mails on request, sign-ups) and
 * `alert_send_counts` (test alerts, channel verification mails), which kept
 * the same fixed windows in two shapes. Each row carries its window's length,
 * so one upsert can count buckets of different windows and the sweep knows
 * when each ended. Windows open at the upgrade are carried over (the alert
 * budgets under their new `alert-send:` prefix), so no limit restarts.
 */
export class RateLimitWindows1763811000000 implements MigrationInterface {
  name = 'RateLimitWindows1763811000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rate_limit_windows (
        key text PRIMARY KEY,
        count integer NOT NULL CHECK (count >= 0),
        window_started_at timestamptz NOT NULL,
        window_seconds integer NOT NULL CHECK (window_seconds > 0)
      )`);
    // The windows' lengths were configuration, not columns: carried rows keep the longest default (15 min, 1 h); the sweep drops them after it.
    await q.query(`INSERT INTO rate_limit_windows (key, count, window_started_at, window_seconds) SELECT key, failures, window_started_at, 900 FROM auth_attempts`);
    await q.query(`INSERT INTO rate_limit_windows (key, count, window_started_at, window_seconds) SELECT 'alert-send:' || key, sent, window_started_at, 3600 FROM alert_send_counts`);
    await q.query(`DROP TABLE auth_attempts`);
    await q.query(`DROP TABLE alert_send_counts`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE auth_attempts (key text PRIMARY KEY, failures integer NOT NULL, window_started_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE alert_send_counts (key text PRIMARY KEY, sent integer NOT NULL, window_started_at timestamptz NOT NULL)`);
    await q.query(`INSERT INTO alert_send_counts (key, sent, window_started_at) SELECT substr(key, 12), count, window_started_at FROM rate_limit_windows WHERE starts_with(key, 'alert-send:')`);
    await q.query(`INSERT INTO auth_attempts (key, failures, window_started_at) SELECT key, count, window_started_at FROM rate_limit_windows WHERE NOT starts_with(key, 'alert-send:')`);
    await q.query(`DROP TABLE rate_limit_windows`);
  }
}
