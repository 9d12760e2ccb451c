import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A status page item may name a tag: the page then shows every job and monitor of its owner carrying it. */
export class StatusPageTagItems1763900300100 implements MigrationInterface {
  name = 'StatusPageTagItems1763900300100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE status_page_items ADD COLUMN tag text NULL`);
    await q.query(`ALTER TABLE status_page_items DROP CONSTRAINT status_page_items_check`);
    await q.query(`ALTER TABLE status_page_items ADD CONSTRAINT status_page_items_one_subject CHECK (num_nonnulls(job_id, monitor_id, tag) = 1)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM status_page_items WHERE tag IS NOT NULL`);
    await q.query(`ALTER TABLE status_page_items DROP CONSTRAINT status_page_items_one_subject`);
    await q.query(`ALTER TABLE status_page_items ADD CONSTRAINT status_page_items_check CHECK ((job_id IS NULL) <> (monitor_id IS NULL))`);
    await q.query(`ALTER TABLE status_page_items DROP COLUMN tag`);
  }
}
