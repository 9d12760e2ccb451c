import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each job's cron expression is read on the clocks of its own IANA time zone; existing jobs keep UTC. */
export class JobTimeZones1763809100000 implements MigrationInterface {
  name = 'JobTimeZones1763809100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN time_zone`);
  }
}
