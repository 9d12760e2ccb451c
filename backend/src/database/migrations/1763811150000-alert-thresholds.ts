import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert thresholds: a job alerts after `alert_after_failures` failed runs in
 * a row (counted in `job_alert_states.consecutive_failures`), a monitor after
 * `alert_after_misses` missed deadlines in a row (`monitors.missed_deadlines`).
 * Both default to 1, the rule before thresholds: the first failure alerts.
 */
export class AlertThresholds1763811150000 implements MigrationInterface {
  name = 'AlertThresholds1763811150000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN alert_after_failures integer NOT NULL DEFAULT 1 CHECK (alert_after_failures BETWEEN 1 AND 1000)`);
    await q.query(`ALTER TABLE job_alert_states ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0`);
    // A job failing at the upgrade has failed at least once in a row.
    await q.query(`UPDATE job_alert_states SET consecutive_failures = 1 WHERE failing`);
    await q.query(`ALTER TABLE monitors ADD COLUMN alert_after_misses integer NOT NULL DEFAULT 1 CHECK (alert_after_misses BETWEEN 1 AND 1000), ADD COLUMN missed_deadlines integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP COLUMN alert_after_misses, DROP COLUMN missed_deadlines`);
    await q.query(`ALTER TABLE job_alert_states DROP COLUMN consecutive_failures`);
    await q.query(`ALTER TABLE jobs DROP COLUMN alert_after_failures`);
  }
}
