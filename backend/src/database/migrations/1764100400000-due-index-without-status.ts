import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The due index named the job's status in its predicate, and a column an
 * index names (in its key or its predicate) makes every update that changes
 * it write a new entry into every index of the table: a stored result that
 * turned a job from scheduled to success, or from success to failed, did so
 * for all five indexes of jobs. A held job (paused, or stopped by its quota)
 * never has a next due time: every statement that holds a job clears
 * next_run_at in the same update, so `next_run_at IS NOT NULL` alone selects
 * the same rows, and results become heap-only updates whenever their page has
 * room (the claim, which moves next_run_at, still writes the indexes). The
 * claim's query keeps its status condition, so a held row with a due time
 * (none exists; cleared here once more) would be read, never fired.
 */
export class DueIndexWithoutStatus1764100400000 implements MigrationInterface {
  name = 'DueIndexWithoutStatus1764100400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE jobs SET next_run_at = NULL WHERE status IN ('paused', 'quota_reached') AND next_run_at IS NOT NULL`);
    await q.query(`DROP INDEX jobs_due_idx`);
    await q.query(`CREATE INDEX jobs_due_idx ON jobs (next_run_at) WHERE next_run_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX jobs_due_idx`);
    await q.query(`CREATE INDEX jobs_due_idx ON jobs (next_run_at) WHERE next_run_at IS NOT NULL AND status NOT IN ('paused', 'quota_reached')`);
  }
}
