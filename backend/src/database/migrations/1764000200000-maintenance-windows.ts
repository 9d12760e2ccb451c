import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Maintenance windows: one job's, a tag's or the whole account's (neither
 * job_id nor tag), one-off (starts_at, ends_at) or recurring (a cron
 * expression and a duration on a zone's clocks), optionally pausing runs.
 * `job_runs.alert_note` says why a finished run alerted no one (a window
 * muted it); the scheduler reads an account's pausing windows per claim
 * through the partial index.
 */
export class MaintenanceWindows1764000200000 implements MigrationInterface {
  name = 'MaintenanceWindows1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE maintenance_windows (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        job_id uuid NULL REFERENCES jobs(id) ON DELETE CASCADE,
        tag text NULL,
        starts_at timestamptz NULL,
        ends_at timestamptz NULL,
        cron_expression text NULL,
        duration_minutes integer NULL,
        time_zone text NOT NULL DEFAULT 'UTC',
        pause_runs boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (job_id IS NULL OR tag IS NULL),
        CHECK ((starts_at IS NOT NULL AND ends_at IS NOT NULL AND cron_expression IS NULL AND duration_minutes IS NULL)
            OR (starts_at IS NULL AND ends_at IS NULL AND cron_expression IS NOT NULL AND duration_minutes IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX maintenance_windows_user_idx ON maintenance_windows (user_id, created_at)`);
    await q.query(`CREATE INDEX maintenance_windows_pausing_idx ON maintenance_windows (user_id) WHERE pause_runs`);
    await q.query(`ALTER TABLE job_runs ADD COLUMN alert_note text NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE job_runs DROP COLUMN alert_note`);
    await q.query(`DROP TABLE maintenance_windows`);
  }
}
