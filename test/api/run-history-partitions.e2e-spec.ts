import { Client } from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { MIGRATIONS } from '../../backend/src/database/migrations';
import { ReadDatabase } from '../../backend/src/database/read-database';
import { PartitionedJobRuns1763900400000 } from '../../backend/src/database/migrations/1763900400000-partitioned-job-runs';
import { JobRunEntity } from '../../backend/src/modules/runs/job-run.entity';
import { JobRunsRepository } from '../../backend/src/modules/runs/job-runs.repository';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The run history partitioned by week (on the embedded database, or on
 * PostgreSQL with TEST_DATABASE_URL): the migration converts a table with
 * rows of every kind and age without losing or changing one, the once-key
 * still refuses a second firing, the service's partitions are made ahead
 * (taking over rows the default partition held) and old weeks go by
 * dropping their partition, never while a run in them is unfinished.
 */
describe('run history partitioned by week', () => {
  let database: TestDatabase;
  let client: Client;
  let source: DataSource;
  let runs: JobRunsRepository;
  let jobId: string;
  let userId: string;
  const runner = () => ({ query: (text: string, params?: unknown[]) => client.query(text, params).then((r) => r.rows) }) as unknown as QueryRunner;
  const migration = new PartitionedJobRuns1763900400000();

  /** Every row as the database spells it, in a fixed order: a conversion must leave this unchanged. */
  const everyRow = async (): Promise<unknown[]> => (await client.query(`SELECT row_to_json(r)::text AS row FROM job_runs r ORDER BY id`)).rows.map((r) => r.row);
  const partitionOf = async (id: string): Promise<string> => (await client.query(`SELECT tableoid::regclass::text AS part FROM job_runs WHERE id = $1`, [id])).rows[0]?.part;
  const insertRun = async (daysAgo: number, state: 'queued' | 'running' | 'done', extra: { attempt?: number; trigger?: string } = {}): Promise<string> =>
    (
      await client.query(
        `INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, attempt, due_at, state, status, executed_at, finished_at, response_code, duration_ms, response_body, created_at)
         SELECT $1, $2, $5, t, $4, t, $3::text, CASE WHEN $3::text = 'done' THEN 'success' END, CASE WHEN $3::text = 'done' THEN t END,
                CASE WHEN $3::text = 'done' THEN t + interval '1 second' END, 200, 15, 'ok', t
         FROM (SELECT now() - make_interval(days => $6::int) AS t) s RETURNING id`,
        [jobId, userId, state, extra.attempt ?? 1, extra.trigger ?? 'schedule', daysAgo],
      )
    ).rows[0].id;

  beforeAll(async () => {
    database = await createTestDatabase(2);
    // The schema the conversion was written for: every migration listed before it (later ones rename job_runs.user_id).
    const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(PartitionedJobRuns1763900400000));
    source = new DataSource({ type: 'postgres', url: database.url, entities: [JobRunEntity], migrations: before, migrationsTransactionMode: 'each', installExtensions: false, uuidExtension: 'pgcrypto', poolSize: 1 });
    await source.initialize();
    await source.runMigrations();
    runs = new JobRunsRepository(source, new ReadDatabase(source, null));
    client = new Client({ connectionString: database.url });
    await client.connect();
    userId = (await client.query(`INSERT INTO users (email, name) VALUES ('runs@example.test', 'Runs') RETURNING id`)).rows[0].id;
    jobId = (await client.query(`INSERT INTO jobs (user_id, name, url, cron_expression) VALUES ($1, 'j', 'https://example.com/', '* * * * *') RETURNING id`, [userId])).rows[0].id;
  });

  afterAll(async () => {
    await client?.end();
    await source?.destroy();
    await database?.drop();
  });

  it('converts a table holding runs of every kind and age without losing or changing a row, and converts back', async () => {
    // Two years, 100 days and 3 days old finished runs, a failure's queued retry, a leased run, a manual run and a due time just now.
    await insertRun(730, 'done');
    await insertRun(100, 'done');
    const recent = await insertRun(3, 'done');
    await insertRun(3, 'queued', { attempt: 2, trigger: 'retry' });
    await insertRun(0, 'running');
    await insertRun(0, 'running', { trigger: 'manual' });
    await client.query(`UPDATE job_runs SET possible_duplicate = true, error_message = 'e', lease_owner = 'host:1:x' WHERE state = 'running'`);
    const rows = await everyRow();
    expect(rows).toHaveLength(6);

    await client.query('BEGIN');
    await migration.up(runner());
    await client.query('COMMIT');

    expect(await everyRow()).toEqual(rows);
    expect((await client.query(`SELECT count(*)::int AS n FROM pg_partitioned_table WHERE partrelid = 'job_runs'::regclass`)).rows[0].n).toBe(1);
    // The week of a recent run has its partition; a run older than the ten weeks made at conversion is in the default one.
    expect(await partitionOf(recent)).toMatch(/^job_runs_w\d{8}$/);
    const oldest = (await client.query(`SELECT id FROM job_runs ORDER BY scheduled_for LIMIT 1`)).rows[0].id;
    expect(await partitionOf(oldest)).toBe('job_runs_default');
    // Four weeks ahead exist already.
    const ahead = (await client.query(`SELECT to_regclass('job_runs_w' || to_char(job_runs_week_start(now() + interval '27 days') AT TIME ZONE 'UTC', 'YYYYMMDD'))::text AS t`)).rows[0].t;
    expect(ahead).toMatch(/^job_runs_w\d{8}$/);

    // Down and up again: the plain table holds the same rows, and so does the partitioned one made from it.
    await client.query('BEGIN');
    await migration.down(runner());
    await client.query('COMMIT');
    expect((await client.query(`SELECT count(*)::int AS n FROM pg_partitioned_table`)).rows[0].n).toBe(0);
    expect(await everyRow()).toEqual(rows);
    await client.query('BEGIN');
    await migration.up(runner());
    await client.query('COMMIT');
    expect(await everyRow()).toEqual(rows);
  });

  it('still refuses a second firing of the same due time and attempt', async () => {
    // Copied in SQL: a JavaScript Date would drop the instant's microseconds and make it another instant.
    const again = (sql: string) =>
      client.query(
        `INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, due_at, state)
         SELECT job_id, user_id, 'schedule', scheduled_for, due_at, 'running' FROM job_runs WHERE trigger = 'schedule' AND state = 'running' ${sql}`,
      );
    expect((await again(`ON CONFLICT (job_id, scheduled_for, attempt) WHERE trigger <> 'manual' DO NOTHING RETURNING id`)).rows).toEqual([]);
    await expect(again('')).rejects.toThrow(/duplicate key value violates unique constraint "job_runs_w\d{8}_job_id_scheduled_for_attempt_idx"/);
  });

  it('makes the partitions ahead, taking over the rows the default partition held for their weeks', async () => {
    // 40 days ahead: beyond the four weeks made so far, so the row lands in the default partition.
    const future = (
      await client.query(`INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, due_at, state) VALUES ($1, $2, 'manual', now() + interval '40 days', now() + interval '40 days', 'queued') RETURNING id`, [
        jobId,
        userId,
      ])
    ).rows[0].id;
    expect(await partitionOf(future)).toBe('job_runs_default');
    const rows = await everyRow();
    expect(await runs.ensurePartitions(50)).toBeGreaterThanOrEqual(2);
    expect(await partitionOf(future)).toMatch(/^job_runs_w\d{8}$/);
    expect(await everyRow()).toEqual(rows);
    expect(await runs.ensurePartitions(50)).toBe(0);
    // Two instances at once: each week is made once (they queue on a lock), neither fails.
    const both = await Promise.all([runs.ensurePartitions(70), runs.ensurePartitions(70)]);
    expect(both.sort()).toEqual([0, both[1]]);
    expect(both[1]).toBeGreaterThanOrEqual(2);
  });

  it('drops the weeks older than the retention whose runs have all finished; keeps a week with a run unfinished, deleting its finished ones, and the old finished runs the default partition held', async () => {
    await client.query(`SELECT job_runs_ensure_partitions(now() - interval '140 days', now())`);
    const oldDone = await insertRun(120, 'done');
    // A failed run 130 days ago and its retry, still queued: their week's partition stays; the failure, finished, goes by DELETE.
    const [keptDone, oldQueued] = (
      await client.query(
        `INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, attempt, due_at, state, status, executed_at, created_at)
         SELECT $1, $2, v.trigger, t, v.attempt, t, v.state, v.status, CASE WHEN v.state = 'done' THEN t END, t
         FROM (SELECT now() - interval '130 days' AS t) s,
              (VALUES ('schedule', 1, 'done', 'failed'), ('retry', 2, 'queued', NULL)) AS v(trigger, attempt, state, status)
         ORDER BY v.attempt RETURNING id`,
        [jobId, userId],
      )
    ).rows.map((r) => r.id);
    const withinRetention = await insertRun(80, 'done');
    const inDefault = (await client.query(`SELECT id FROM job_runs WHERE scheduled_for < now() - interval '700 days'`)).rows[0].id;
    expect(await partitionOf(inDefault)).toBe('job_runs_default');
    const oldDonePartition = await partitionOf(oldDone);
    expect(await partitionOf(keptDone)).toMatch(/^job_runs_w\d{8}$/);
    const recent = (await client.query(`SELECT id FROM job_runs WHERE scheduled_for > now() - interval '90 days'`)).rows.map((r) => r.id);
    expect(recent).toContain(withinRetention);

    const dropped = await runs.pruneOlderThan(90);
    expect(dropped).toBeGreaterThanOrEqual(1);
    const left = new Set((await client.query(`SELECT id FROM job_runs`)).rows.map((r) => r.id));
    expect(left.has(oldDone)).toBe(false);
    expect((await client.query(`SELECT to_regclass($1) AS t`, [oldDonePartition])).rows[0].t).toBeNull();
    expect(left.has(oldQueued)).toBe(true);
    expect(left.has(keptDone)).toBe(false);
    expect((await client.query(`SELECT to_regclass($1) AS t`, [await partitionOf(oldQueued)])).rows[0].t).not.toBeNull();
    expect(left.has(inDefault)).toBe(false);
    // Nothing within the retention went.
    expect(recent.filter((id) => !left.has(id))).toEqual([]);
  });
});
