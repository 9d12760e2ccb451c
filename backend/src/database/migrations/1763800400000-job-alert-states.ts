import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether each job is in a failure episode, so a failure alert goes out once
 * per episode (not per retry or per failed run) and a recovery alert when it ends.
 */
export class JobAlertStates1763800400000 implements MigrationInterface {
  name = 'JobAlertStates1763800400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_alert_states (
        job_id uuid PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
        failing boolean NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE job_alert_states`);
  }
}
