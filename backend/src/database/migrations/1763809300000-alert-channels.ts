import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's alert channels (email address, signed webhook, Slack, Discord) with
 * the jobs whose alerts they take (null: every alerting job), and the log of
 * every delivery attempt. A webhook's secret signs its deliveries, so it is
 * kept as issued (it is never answered again after creation).
 */
export class AlertChannels1763809300000 implements MigrationInterface {
  name = 'AlertChannels1763809300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alert_channels (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        kind text NOT NULL,
        target text NOT NULL,
        secret text NULL,
        job_ids uuid[] NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX alert_channels_user_idx ON alert_channels (user_id, created_at)`);
    await q.query(`
      CREATE TABLE alert_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        channel_id uuid NOT NULL REFERENCES alert_channels(id) ON DELETE CASCADE,
        job_id uuid NULL,
        event text NOT NULL,
        attempt integer NOT NULL,
        status text NOT NULL,
        response_code integer NULL,
        error text NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX alert_deliveries_channel_idx ON alert_deliveries (channel_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alert_deliveries`);
    await q.query(`DROP TABLE alert_channels`);
  }
}
