import { SchedulerDatabase, type SchedulerInstanceParts } from './support/scheduler-database';

/**
 * The run history's upkeep as housekeeping calls it (RunsService.pruneLogs),
 * on a real database: the weekly partitions exist four weeks ahead again, a
 * week past the retention goes by dropping its partition, and a job keeps
 * its newest 1,000 finished runs.
 */
describe('run history upkeep (database level)', () => {
  let sdb: SchedulerDatabase;
  let scheduler: SchedulerInstanceParts;

  beforeAll(async () => {
    sdb = await SchedulerDatabase.start();
    scheduler = sdb.instance();
  });
  afterAll(async () => {
    await sdb?.close();
  });

  const weekName = async (offsetDays: number): Promise<string> =>
    (await sdb.query(`SELECT 'job_runs_w' || to_char(job_runs_week_start(now() + make_interval(days => $1::int)) AT TIME ZONE 'UTC', 'YYYYMMDD') AS name`, [offsetDays]))[0].name;
  const exists = async (table: string): Promise<boolean> => (await sdb.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [table]))[0].present;

  it('makes the weeks ahead, drops a week past the retention, and keeps each job to its newest 1,000 runs', async () => {
    const userId = await sdb.createUser();
    const busy = await sdb.createJob(userId, { nextRunAt: new Date(Date.now() + 3_600_000) });
    const quiet = await sdb.createJob(userId, { nextRunAt: new Date(Date.now() + 3_600_000) });
    // A week 100 days back holding one finished run, and 1,005 recent finished runs of one job.
    await sdb.query(`SELECT job_runs_ensure_partitions(now() - interval '100 days', now() - interval '99 days')`);
    const oldWeek = await weekName(-100);
    await sdb.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, status, executed_at, created_at)
       SELECT $1, $2, 'schedule', t, t, 'done', 'success', t, t FROM (SELECT now() - interval '100 days' AS t) s`,
      [quiet, userId],
    );
    await sdb.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, status, executed_at, created_at)
       SELECT $1, $2, 'schedule', t, t, 'done', 'success', t, t FROM (SELECT now() - n * interval '1 minute' AS t FROM generate_series(1, 1005) n) s`,
      [busy, userId],
    );
    // A week three weeks ahead is missing (as after a long stop): upkeep makes it again.
    const ahead = await weekName(21);
    await sdb.query(`ALTER TABLE job_runs DETACH PARTITION ${ahead}`);
    await sdb.query(`DROP TABLE ${ahead}`);
    expect(await exists(oldWeek)).toBe(true);

    await scheduler.runs.pruneLogs();

    expect(await exists(ahead)).toBe(true);
    expect(await exists(oldWeek)).toBe(false);
    const counts = await sdb.query(`SELECT job_id, count(*)::int AS n, min(scheduled_for) > now() - interval '1001 minutes' AS newest FROM job_runs GROUP BY job_id`);
    expect(counts).toEqual([{ job_id: busy, n: 1_000, newest: true }]);
  });
});
