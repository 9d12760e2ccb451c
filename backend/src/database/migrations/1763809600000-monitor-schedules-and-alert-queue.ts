import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Heartbeat monitors get a cron schedule (with its time zone) as an
 * alternative to a period, their own choice of alert channels, a paused state
 * and a short history of pings and missed pings. Alert deliveries waiting for
 * a retry move from memory into `alert_queue`, so a restart does not lose them:
 * a worker claims due rows (FOR UPDATE SKIP LOCKED, with a lease) so no two
 * instances send the same one.
 */
export class MonitorSchedulesAndAlertQueue1763809600000 implements MigrationInterface {
  name = 'MonitorSchedulesAndAlertQueue1763809600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ALTER COLUMN period_seconds DROP NOT NULL`);
    await q.query(`ALTER TABLE monitors ADD COLUMN cron_expression text NULL, ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC', ADD COLUMN channel_ids uuid[] NULL`);
    await q.query(`CREATE INDEX monitors_user_idx ON monitors (user_id, created_at)`);
    await q.query(`
      CREATE TABLE monitor_events (
        id bigserial PRIMARY KEY,
        monitor_id uuid NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        kind text NOT NULL,
        duration_ms integer NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX monitor_events_monitor_idx ON monitor_events (monitor_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE alert_queue (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        channel_id uuid NOT NULL REFERENCES alert_channels(id) ON DELETE CASCADE,
        alert jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        due_at timestamptz NOT NULL DEFAULT now(),
        leased_until timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX alert_queue_due_idx ON alert_queue (due_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alert_queue`);
    await q.query(`DROP TABLE monitor_events`);
    await q.query(`DROP INDEX monitors_user_idx`);
    await q.query(`DELETE FROM monitors WHERE period_seconds IS NULL`);
    await q.query(`ALTER TABLE monitors DROP COLUMN cron_expression, DROP COLUMN time_zone, DROP COLUMN channel_ids, ALTER COLUMN period_seconds SET NOT NULL`);
  }
}
