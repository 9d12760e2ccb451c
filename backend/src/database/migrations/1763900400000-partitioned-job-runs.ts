import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `job_runs` becomes a table partitioned by week of `scheduled_for`
 * (declarative range partitioning: no extension, so managed PostgreSQL and
 * the embedded database both have it). Old history then goes by dropping a
 * week's partition instead of deleting its rows one by one, which left vacuum
 * work proportional to the history.
 *
 * - The partition key is `scheduled_for`: a retry keeps its run's
 *   `scheduled_for`, so the once-key (job_id, scheduled_for, attempt) that
 *   makes a second firing impossible includes it, as PostgreSQL requires of
 *   a unique index on a partitioned table. The primary key becomes
 *   (id, scheduled_for) for the same reason; ids stay unique (random UUIDs).
 * - `job_runs_default` takes any row no weekly partition covers (an old
 *   missed instant, a clock far off), so no insert can fail for want of a partition.
 * - `job_runs_ensure_partitions(from, to)` creates the missing weekly
 *   partitions for that span, moving into each the rows the default
 *   partition held for its week; the service calls it ahead of time and at
 *   start (RunsService.preparePartitions). Concurrent callers queue on an
 *   advisory lock.
 * - `job_runs_drop_partitions(before)` drops every weekly partition that
 *   ends before `before` and holds only finished runs; answers how many.
 * No table references job_runs, so no foreign key had to change.
 *
 * The existing rows are copied into the new table in one statement and
 * counted before the old table goes: a conversion that lost a row fails.
 */
export class PartitionedJobRuns1763900400000 implements MigrationInterface {
  name = 'PartitionedJobRuns1763900400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE job_runs RENAME TO job_runs_unpartitioned`);
    await renameIndexes(q, 'job_runs_unpartitioned', 'unpartitioned_');
    // LIKE copies every column as it stands (with defaults and checks), whatever earlier migrations added.
    await q.query(`
      CREATE TABLE job_runs (LIKE job_runs_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
      PARTITION BY RANGE (scheduled_for)`);
    await q.query(`ALTER TABLE job_runs ADD CONSTRAINT job_runs_pkey PRIMARY KEY (id, scheduled_for)`);
    await q.query(`ALTER TABLE job_runs ADD CONSTRAINT job_runs_job_id_fkey FOREIGN KEY (job_id) REFERENCES jobs(id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE job_runs ADD CONSTRAINT job_runs_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE`);
    await q.query(`CREATE UNIQUE INDEX job_runs_once_key ON job_runs (job_id, scheduled_for, attempt) WHERE trigger <> 'manual'`);
    await q.query(`CREATE INDEX job_runs_job_idx ON job_runs (job_id, created_at DESC)`);
    await q.query(`CREATE INDEX job_runs_queue_idx ON job_runs (due_at) WHERE state = 'queued'`);
    await q.query(`CREATE INDEX job_runs_lease_idx ON job_runs (lease_expires_at) WHERE state = 'running'`);
    await q.query(`CREATE INDEX job_runs_lease_owner_idx ON job_runs (lease_owner, due_at) WHERE state = 'running'`);
    await q.query(`CREATE TABLE job_runs_default PARTITION OF job_runs DEFAULT`);
    await q.query(`
      CREATE FUNCTION job_runs_week_start(at timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE AS $fn$ SELECT date_trunc('week', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $fn$`);
    await q.query(`
      CREATE FUNCTION job_runs_ensure_partitions(from_at timestamptz, to_at timestamptz) RETURNS integer
      LANGUAGE plpgsql AS $fn$
      DECLARE
        week timestamptz := job_runs_week_start(from_at);
        part text;
        created integer := 0;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('job_runs_partitions'));
        WHILE week < to_at LOOP
          part := 'job_runs_w' || to_char(week AT TIME ZONE 'UTC', 'YYYYMMDD');
          IF to_regclass(part) IS NULL THEN
            -- Made apart, filled with the week's rows from the default partition, then attached:
            -- attaching checks that the default holds no more rows of the week.
            EXECUTE format('CREATE TABLE %I (LIKE job_runs INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
            EXECUTE format('WITH moved AS (DELETE FROM job_runs_default WHERE scheduled_for >= $1 AND scheduled_for < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', part)
              USING week, week + interval '7 days';
            EXECUTE format('ALTER TABLE job_runs ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, week, week + interval '7 days');
            created := created + 1;
          END IF;
          week := week + interval '7 days';
        END LOOP;
        RETURN created;
      END $fn$`);
    await q.query(`
      CREATE FUNCTION job_runs_drop_partitions(before timestamptz) RETURNS integer
      LANGUAGE plpgsql AS $fn$
      DECLARE
        part record;
        unfinished boolean;
        dropped integer := 0;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('job_runs_partitions'));
        FOR part IN
          SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'job_runs'::regclass AND c.relname ~ '^job_runs_w[0-9]{8}$'
            AND to_date(substr(c.relname, 11), 'YYYYMMDD')::timestamp AT TIME ZONE 'UTC' + interval '7 days' <= before
          ORDER BY c.relname
        LOOP
          -- A run still queued or leased is never pruned: its week waits until it has finished.
          EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE state <> ''done'')', part.relname) INTO unfinished;
          CONTINUE WHEN unfinished;
          EXECUTE format('ALTER TABLE job_runs DETACH PARTITION %I', part.relname);
          EXECUTE format('DROP TABLE %I', part.relname);
          dropped := dropped + 1;
        END LOOP;
        RETURN dropped;
      END $fn$`);
    // The weeks the existing rows fall in (ten at most before this one: older rows are within days of their
    // pruning and stay in the default partition, where retention deletes them), and four weeks ahead.
    await q.query(`
      SELECT job_runs_ensure_partitions(
        greatest(coalesce((SELECT min(scheduled_for) FROM job_runs_unpartitioned), now()), now() - interval '70 days'),
        now() + interval '28 days')`);
    const [{ n: before }] = await q.query(`SELECT count(*)::bigint AS n FROM job_runs_unpartitioned`);
    await q.query(`INSERT INTO job_runs SELECT * FROM job_runs_unpartitioned`);
    const [{ n: after }] = await q.query(`SELECT count(*)::bigint AS n FROM job_runs`);
    if (String(before) !== String(after)) throw new Error(`job_runs conversion copied ${after} of ${before} rows`);
    await q.query(`DROP TABLE job_runs_unpartitioned`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE job_runs RENAME TO job_runs_partitioned`);
    await renameIndexes(q, 'job_runs_partitioned', 'partitioned_');
    await q.query(`CREATE TABLE job_runs (LIKE job_runs_partitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await q.query(`ALTER TABLE job_runs ADD CONSTRAINT job_runs_pkey PRIMARY KEY (id)`);
    await q.query(`ALTER TABLE job_runs ADD CONSTRAINT job_runs_job_id_fkey FOREIGN KEY (job_id) REFERENCES jobs(id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE job_runs ADD CONSTRAINT job_runs_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE`);
    await q.query(`CREATE UNIQUE INDEX job_runs_once_key ON job_runs (job_id, scheduled_for, attempt) WHERE trigger <> 'manual'`);
    await q.query(`CREATE INDEX job_runs_job_idx ON job_runs (job_id, created_at DESC)`);
    await q.query(`CREATE INDEX job_runs_queue_idx ON job_runs (due_at) WHERE state = 'queued'`);
    await q.query(`CREATE INDEX job_runs_lease_idx ON job_runs (lease_expires_at) WHERE state = 'running'`);
    await q.query(`CREATE INDEX job_runs_lease_owner_idx ON job_runs (lease_owner, due_at) WHERE state = 'running'`);
    await q.query(`INSERT INTO job_runs SELECT * FROM job_runs_partitioned`);
    await q.query(`DROP TABLE job_runs_partitioned`);
    await q.query(`DROP FUNCTION job_runs_drop_partitions(timestamptz)`);
    await q.query(`DROP FUNCTION job_runs_ensure_partitions(timestamptz, timestamptz)`);
    await q.query(`DROP FUNCTION job_runs_week_start(timestamptz)`);
  }
}

/** Gives the table's indexes (and the constraints they back) a prefix, so the new table can take their names. */
async function renameIndexes(q: QueryRunner, table: string, prefix: string): Promise<void> {
  await q.query(`
    DO $do$
    DECLARE r record;
    BEGIN
      FOR r IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = '${table}'::regclass LOOP
        EXECUTE format('ALTER INDEX %I RENAME TO %I', r.relname, '${prefix}' || r.relname);
      END LOOP;
    END $do$`);
}
