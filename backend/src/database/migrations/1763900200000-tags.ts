import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tags on jobs and monitors: lower-case labels (at most 10, checked by the
 * API's rules), filtered with `tags @> ARRAY[tag]`, which the GIN indexes serve.
 */
export class Tags1763900200000 implements MigrationInterface {
  name = 'Tags1763900200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN tags text[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE monitors ADD COLUMN tags text[] NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE INDEX jobs_tags_idx ON jobs USING gin (tags)`);
    await q.query(`CREATE INDEX monitors_tags_idx ON monitors USING gin (tags)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX monitors_tags_idx`);
    await q.query(`DROP INDEX jobs_tags_idx`);
    await q.query(`ALTER TABLE monitors DROP COLUMN tags`);
    await q.query(`ALTER TABLE jobs DROP COLUMN tags`);
  }
}
