import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Heartbeat monitors: jobs that run elsewhere and ping a unique URL. A monitor
 * is down once its next ping is overdue by more than the grace time (or a
 * ping reports a failure) and up again at the next ping.
 */
export class HeartbeatMonitors1763809400000 implements MigrationInterface {
  name = 'HeartbeatMonitors1763809400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE monitors (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        token text NOT NULL UNIQUE,
        period_seconds integer NOT NULL,
        grace_seconds integer NOT NULL,
        status text NOT NULL DEFAULT 'new',
        last_ping_at timestamptz NULL,
        started_at timestamptz NULL,
        last_duration_ms integer NULL,
        due_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX monitors_due_idx ON monitors (due_at) WHERE status = 'up'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE monitors`);
  }
}
