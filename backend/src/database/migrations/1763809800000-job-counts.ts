import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each user's number of jobs, kept by the database on every write to `jobs`,
 * so the plan's job limit is checked by reading one row: counting the jobs
 * under the per-user creation lock took time in proportion to the user's jobs
 * (heap fetches on freshly inserted rows), and every creation of that user
 * waited for it (docs/adr/0110-api-throughput.md).
 *
 * Insertions and deletions: statement-level triggers with transition tables
 * apply one delta per user per statement, whatever the number of rows (bulk
 * creation, cascades, SQL). Each statement changes counters in user_id order,
 * so two statements touching the same users lock their counter rows in the
 * same order and cannot deadlock on them. A change of owner (SQL only) is a
 * row-level trigger on user_id.
 * A user with no row has no jobs.
 */
export class JobCounts1763809800000 implements MigrationInterface {
  name = 'JobCounts1763809800000';

  async up(q: QueryRunner): Promise<void> {
    // No job may change between the backfill and the triggers taking over (held until this migration commits).
    await q.query(`LOCK TABLE jobs IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(`
      CREATE TABLE job_counts (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        jobs integer NOT NULL CHECK (jobs >= 0)
      )`);
    await q.query(`
      CREATE FUNCTION job_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        change record;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          -- The hot path (every creation): one statement, rows inserted and locked in user_id order.
          INSERT INTO job_counts AS c (user_id, jobs)
          SELECT user_id, count(*) FROM new_rows GROUP BY user_id ORDER BY user_id
          ON CONFLICT (user_id) DO UPDATE SET jobs = c.jobs + EXCLUDED.jobs;
          RETURN NULL;
        END IF;
        -- DELETE. An UPDATE ... FROM locks rows in whatever order its join yields, so
        -- the users are done one at a time, in user_id order.
        FOR change IN SELECT user_id, count(*)::int AS removed FROM old_rows GROUP BY user_id ORDER BY user_id LOOP
          -- Never an insert: when the user is being deleted, its row may be gone already (ON DELETE CASCADE).
          UPDATE job_counts SET jobs = jobs - change.removed WHERE user_id = change.user_id;
        END LOOP;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER job_counts_insert AFTER INSERT ON jobs
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION job_counts_apply()`);
    await q.query(`
      CREATE TRIGGER job_counts_delete AFTER DELETE ON jobs
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION job_counts_apply()`);
    // A job changing owner (nothing in the service does; SQL may). Row-level, so that it can name the column and
    // carry a WHEN: the scheduler's updates, which never set user_id, neither fire it nor build transition tables.
    await q.query(`
      CREATE FUNCTION job_counts_move() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        UPDATE job_counts SET jobs = jobs - 1 WHERE user_id = OLD.user_id;
        INSERT INTO job_counts AS c (user_id, jobs) VALUES (NEW.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET jobs = c.jobs + 1;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER job_counts_update AFTER UPDATE OF user_id ON jobs
      FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION job_counts_move()`);
    await q.query(`
      CREATE FUNCTION job_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        DELETE FROM job_counts;
        RETURN NULL;
      END
      $fn$`);
    // TRUNCATE fires no delete triggers (the benchmarks empty jobs so).
    await q.query(`CREATE TRIGGER job_counts_truncate AFTER TRUNCATE ON jobs FOR EACH STATEMENT EXECUTE FUNCTION job_counts_clear()`);
    await q.query(`INSERT INTO job_counts (user_id, jobs) SELECT user_id, count(*) FROM jobs GROUP BY user_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER job_counts_truncate ON jobs`);
    await q.query(`DROP TRIGGER job_counts_update ON jobs`);
    await q.query(`DROP TRIGGER job_counts_delete ON jobs`);
    await q.query(`DROP TRIGGER job_counts_insert ON jobs`);
    await q.query(`DROP FUNCTION job_counts_clear()`);
    await q.query(`DROP FUNCTION job_counts_move()`);
    await q.query(`DROP FUNCTION job_counts_apply()`);
    await q.query(`DROP TABLE job_counts`);
  }
}
