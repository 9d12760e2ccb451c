import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What counts as a successful response per job (null: any 2xx), the job's own
 * request timeout (null: the server's), and auto-pause after a number of
 * consecutive failed runs (null: never) with the running count it compares.
 */
export class JobResponseRules1763809200000 implements MigrationInterface {
  name = 'JobResponseRules1763809200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN response_rules jsonb NULL`);
    await q.query(`ALTER TABLE jobs ADD COLUMN timeout_ms integer NULL`);
    await q.query(`ALTER TABLE jobs ADD COLUMN auto_pause_after integer NULL`);
    await q.query(`ALTER TABLE jobs ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN consecutive_failures, DROP COLUMN auto_pause_after, DROP COLUMN timeout_ms, DROP COLUMN response_rules`);
  }
}
