import { HttpTarget } from '../fakes/http-target';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures } from './scheduler-fixtures';

jest.setTimeout(60_000);

const JOBS = 500;

describe('scheduler: two instances on one database', () => {
  let database: TestDatabase;
  let instances: TestServer[];
  let target: HttpTarget;
  let db: SchedulerFixtures;

  beforeAll(async () => {
    target = await HttpTarget.start();
    database = await createTestDatabase(12);
    // The first start runs the migrations; the second finds them applied.
    const first = await startTestServer({ ...FAST_SCHEDULER_ENV, EXECUTION_TIMEOUT_MS: '10000' }, database);
    const second = await startTestServer({ ...FAST_SCHEDULER_ENV, EXECUTION_TIMEOUT_MS: '10000' }, database);
    instances = [first, second];
    db = await SchedulerFixtures.connect(database.url);
  });

  afterAll(async () => {
    await db?.close();
    for (const instance of instances ?? []) await instance.close();
    await database?.drop();
    await target?.close();
  });

  it(`fires each of ${JOBS} jobs due at the same instant exactly once`, async () => {
    const userId = await db.user('unlimited');
    const due = new Date(Date.now() + 1_500);
    await db.query(
      `INSERT INTO jobs (user_id, name, url, cron_expression, status, next_run_at)
       SELECT $1, 'bulk-' || n, $2 || '/bulk?n=' || n, '0 0 1 1 *', 'scheduled', $3
       FROM generate_series(1, ${JOBS}) AS n`,
      [userId, target.url, due],
    );
    await target.waitFor(() => target.requests('/bulk').length >= JOBS, 30_000);
    const runs = await eventually(async () => {
      const rows = await db.query(`SELECT job_id, state, status FROM job_runs WHERE user_id = $1`, [userId]);
      return rows.length === JOBS && rows.every((r) => r.state === 'done') ? rows : null;
    }, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything fired twice would have arrived by now

    const requests = target.requests('/bulk');
    expect(requests).toHaveLength(JOBS);
    expect(new Set(requests.map((r) => r.path)).size).toBe(JOBS);
    expect(new Set(requests.map((r) => r.headers['x-cronbeam-execution-id'])).size).toBe(JOBS);
    expect(Math.min(...requests.map((r) => r.arrivedAt))).toBeGreaterThanOrEqual(due.getTime());
    expect(new Set(runs.map((r) => r.job_id)).size).toBe(JOBS);
    expect(runs.every((r) => r.status === 'success')).toBe(true);
    const [usage] = await db.query(`SELECT executions FROM usage_periods WHERE user_id = $1`, [userId]);
    expect(usage.executions).toBe(JOBS);
  });
});
