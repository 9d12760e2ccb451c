import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every execution updates its job twice: the claim moves next_run_at (an
 * indexed column, so the new row version goes into every index of jobs), and
 * the stored result sets last_run_at, the status and the failure count, none
 * of which an index holds unless the status changes. That second update can
 * be a heap-only tuple (HOT: no index entries, less WAL, no index bloat) when
 * the page has room for the new version; at the default fillfactor of 100 a
 * page of jobs has none. 80 leaves a fifth of each page for them. Pages
 * already written get the room as they are rewritten (VACUUM FULL or
 * pg_repack on a busy table, at a time of the operator's choosing).
 */
export class JobsFillfactor1763900400100 implements MigrationInterface {
  name = 'JobsFillfactor1763900400100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs SET (fillfactor = 80)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs RESET (fillfactor)`);
  }
}
