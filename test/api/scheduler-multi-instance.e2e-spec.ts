import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin } from '../support/accounts';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';

jest.setTimeout(60_000);

const JOBS = 500;

describe('scheduler: two instances on one database', () => {
  let database: TestDatabase;
  let instances: TestServer[];
  let apiOnly: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;

  beforeAll(async () => {
    target = await HttpTarget.start();
    database = await createTestDatabase(12);
    // The first start runs the migrations; the second finds them applied.
    // Runs are claimed up to 10 s ahead of their instant, so a pause can land between claim and instant
    // even on a heavily loaded machine.
    // A grace of 10 s: a request may wait half of it for a connection. With the fast settings' 0.5 s grace, the tail of
    // 500 requests to one host (32 connections at first) waited past its 250 ms on a loaded machine and was logged "Not sent".
    const env = { ...FAST_SCHEDULER_ENV, EXECUTION_TIMEOUT_MS: '10000', SCHEDULER_LOOKAHEAD_MS: '10000', SCHEDULER_LEASE_GRACE_MS: '10000' };
    const first = await startTestServer(env, database);
    const second = await startTestServer(env, database);
    instances = [first, second];
    apiOnly = await startTestServer({ ...env, SCHEDULER_ENABLED: 'false' }, database);
    db = await SchedulerFixtures.connect(database.url);
  });

  afterAll(async () => {
    await db?.close();
    await apiOnly?.close();
    for (const instance of instances ?? []) await instance.close();
    await database?.drop();
    await target?.close();
  });

  it(`fires each of ${JOBS} jobs due at the same instant exactly once`, async () => {
    const userId = await db.user('unlimited');
    const due = new Date(Date.now() + 1_500);
    await db.query(
      `INSERT INTO jobs (account_id, name, url, cron_expression, status, next_run_at)
       SELECT $1, 'bulk-' || n, $2 || '/bulk?n=' || n, '0 0 1 1 *', 'scheduled', $3
       FROM generate_series(1, ${JOBS}) AS n`,
      [userId, target.url, due],
    );
    await target.waitFor(() => target.requests('/bulk').length >= JOBS, 30_000);
    const runs = await eventually(async () => {
      const rows = await db.query(`SELECT job_id, state, status FROM job_runs WHERE account_id = $1`, [userId]);
      return rows.length === JOBS && rows.every((r) => r.state === 'done') ? rows : null;
    }, 20_000);
    await schedulerPassed(db, `${target.url}/sentinel`, 500); // anything fired twice would have arrived by now

    const requests = target.requests('/bulk');
    expect(requests).toHaveLength(JOBS);
    expect(new Set(requests.map((r) => r.path)).size).toBe(JOBS);
    expect(new Set(requests.map((r) => r.headers['x-cronbeam-execution-id'])).size).toBe(JOBS);
    expect(Math.min(...requests.map((r) => r.arrivedAt))).toBeGreaterThanOrEqual(due.getTime());
    expect(new Set(runs.map((r) => r.job_id)).size).toBe(JOBS);
    expect(runs.every((r) => r.status === 'success')).toBe(true);
    const [usage] = await db.query(`SELECT executions FROM usage_periods WHERE account_id = $1`, [userId]);
    expect(usage.executions).toBe(JOBS);
  });

  it('a job paused on one instance does not fire from the run another instance claimed ahead of time', async () => {
    const user = await signUpAndLogin(apiOnly);
    const due = new Date(Date.now() + 14_000);
    const jobId = await db.job(user.userId, { url: `${target.url}/paused-elsewhere`, nextRunAt: due, status: 'scheduled' });
    // One of the two schedulers claims the run (leased to it) about 10 s before the instant.
    const [claimed] = await eventually(async () => {
      const runs = await db.runs(jobId);
      return runs.length === 1 && runs[0].state === 'running' ? runs : null;
    }, 10_000, 'claim ahead of the instant');
    expect(new Date(claimed.scheduled_for).getTime()).toBe(due.getTime());

    // The pause arrives through an instance that schedules nothing: only the notification can stop the run.
    const paused = await apiOnly.http.post(`/api/jobs/${jobId}/pause`, undefined, { token: user.accessToken });
    expect(paused.status).toBe(200);
    expect(Date.now()).toBeLessThan(due.getTime());

    await eventually(async () => (await db.runs(jobId)).length === 0, 10_000, 'claim undone');
    const [usage] = await db.query(`SELECT executions FROM usage_periods WHERE account_id = $1`, [user.userId]);
    expect(usage.executions).toBe(0);
    await schedulerPassed(db, `${target.url}/sentinel`, due.getTime() + 500 - Date.now());
    expect(target.requests('/paused-elsewhere')).toHaveLength(0);
    expect(await db.runs(jobId)).toHaveLength(0);
  });

  it('a job paused and resumed before its claimed instant still fires at that instant, once', async () => {
    const user = await signUpAndLogin(apiOnly);
    // Start 14 s before a minute boundary: the job's next run is that boundary, claimed 10 s ahead of it.
    const minute = 60_000;
    const wait = (minute - (Date.now() % minute) - 14_000 + minute) % minute;
    await new Promise((resolve) => setTimeout(resolve, wait));
    const boundary = Math.ceil(Date.now() / minute) * minute;
    const created = await apiOnly.http.post('/api/jobs', { name: 'pause-resume', url: `${target.url}/pause-resume`, cron_expression: '* * * * *' }, { token: user.accessToken });
    expect(created.status).toBe(200);
    const jobId = created.body.job_id;
    expect(new Date(created.body.next_run_at).getTime()).toBe(boundary);
    await eventually(async () => (await db.runs(jobId))[0]?.state === 'running', 12_000, 'claim ahead of the instant');

    expect((await apiOnly.http.post(`/api/jobs/${jobId}/pause`, undefined, { token: user.accessToken })).status).toBe(200);
    await eventually(async () => (await db.runs(jobId)).length === 0, 10_000, 'claim undone');
    const resumed = await apiOnly.http.post(`/api/jobs/${jobId}/resume`, undefined, { token: user.accessToken });
    expect(resumed.status).toBe(200);
    expect(new Date(resumed.body.next_run_at).getTime()).toBe(boundary);
    expect(Date.now()).toBeLessThan(boundary);

    await target.waitFor(() => target.requests('/pause-resume').length === 1, 20_000);
    const [request] = target.requests('/pause-resume');
    expect(request.arrivedAt).toBeGreaterThanOrEqual(boundary);
    const [run] = await eventually(async () => {
      const runs = await db.runs(jobId);
      return runs[0]?.state === 'done' ? runs : null;
    });
    expect(run).toMatchObject({ status: 'success', attempt: 1 });
    expect(new Date(run.scheduled_for).getTime()).toBe(boundary);
    await schedulerPassed(db, `${target.url}/sentinel`, 500);
    expect(target.requests('/pause-resume')).toHaveLength(1);
    expect(await db.runs(jobId)).toHaveLength(1);
  }, 120_000);
});
