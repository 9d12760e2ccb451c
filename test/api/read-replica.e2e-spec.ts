import { Client } from 'pg';
import { AppConfig } from '../../backend/src/config/app-config';
import { createApp } from '../../backend/src/bootstrap';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { LogCapture } from '../support/log-capture';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { FAST_SCHEDULER_ENV, eventually } from './scheduler-fixtures';

/**
 * DATABASE_READ_URL pointed at a second database that is a copy of the
 * primary taken at a known point and then changed on each side, so every
 * answer shows which database it came from: the replica's copy of the first
 * job is renamed, and a run exists only there.
 */
describe('read replica (DATABASE_READ_URL)', () => {
  let primary: TestDatabase;
  let replica: TestDatabase;
  let server: TestServer;
  let target: HttpTarget;
  let account: SignedInAccount;
  let firstJob: string;
  let secondJob: string;
  let serverClosed = false;

  const query = async <T = Record<string, unknown>>(db: TestDatabase, text: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  };

  /** Copies a table's rows from the primary to the replica, as replication would have by then. */
  const copy = async (table: string) => {
    const [{ rows }] = await query<{ rows: unknown }>(primary, `SELECT coalesce(json_agg(t), '[]') AS rows FROM ${table} t`);
    await query(replica, `INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1::json)`, [JSON.stringify(rows)]);
  };
  const auth = () => ({ token: account.accessToken });

  beforeAll(async () => {
    [primary, replica, target] = await Promise.all([createTestDatabase(5, { migrated: true }), createTestDatabase(5, { migrated: true }), HttpTarget.start()]);
    target.on('/hook', (_req, res) => res.end('ok'));
    // The replica's schema: what the primary's migrations made, as replication would bring it.
    await (await startTestServer({}, replica)).close();
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, DATABASE_READ_URL: replica.url }, primary);
    account = await signUpAndLogin(server);
    const created = await server.http.post('/api/jobs', { name: 'first', url: `${target.url}/hook`, cron_expression: '0 0 1 1 *' }, auth());
    expect(created.status).toBe(200);
    firstJob = created.body.job_id;
    // The known point: the replica has the account and the first job, then each side changes.
    await copy('users');
    await copy('accounts');
    await copy('jobs');
    await query(replica, `UPDATE jobs SET name = 'first-as-the-replica-has-it' WHERE id = $1`, [firstJob]);
    await query(
      replica,
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, status, executed_at, finished_at, response_code, duration_ms)
       VALUES ($1, $2, 'schedule', now() - interval '1 hour', now() - interval '1 hour', 'done', 'success', now() - interval '1 hour', now() - interval '1 hour', 299, 7)`,
      [firstJob, account.userId],
    );
    const second = await server.http.post('/api/jobs', { name: 'second', url: `${target.url}/hook`, cron_expression: '0 0 1 1 *' }, auth());
    expect(second.status).toBe(200);
    secondJob = second.body.job_id;
  }, 60_000);

  afterAll(async () => {
    if (!serverClosed) await server?.close();
    await Promise.all([primary?.drop(), replica?.drop(), target?.close()]);
  });

  it('serves the job list and the export from the replica', async () => {
    const list = await server.http.get('/api/jobs', auth());
    expect(list.status).toBe(200);
    expect(list.body.map((j: { name: string }) => j.name)).toEqual(['first-as-the-replica-has-it']);
    const exported = await server.http.get('/api/jobs/export', auth());
    expect(exported.status).toBe(200);
    expect(JSON.stringify(exported.body)).toContain('first-as-the-replica-has-it');
    expect(JSON.stringify(exported.body)).not.toContain('"second"');
  });

  it('serves the dashboard counts and a job log from the replica', async () => {
    const stats = await server.http.get('/api/dashboard', auth());
    expect(stats.status).toBe(200);
    expect(stats.body.total_jobs).toBe(1);
    const logs = await server.http.get(`/api/jobs/${firstJob}/logs`, auth());
    expect(logs.status).toBe(200);
    expect(logs.body.logs.map((l: { response_code: number }) => l.response_code)).toEqual([299]);
  });

  it('writes to the primary, and reads one job (after a write) from it', async () => {
    const renamed = await server.http.put(`/api/jobs/${secondJob}`, { name: 'second-renamed', url: `${target.url}/hook`, cron_expression: '0 0 1 1 *' }, auth());
    expect(renamed.status).toBe(200);
    expect((await server.http.get(`/api/jobs/${secondJob}`, auth())).body.name).toBe('second-renamed');
    expect(await query(primary, `SELECT name FROM jobs WHERE id = $1`, [secondJob])).toEqual([{ name: 'second-renamed' }]);
    expect(await query(replica, `SELECT name FROM jobs WHERE id = $1`, [secondJob])).toEqual([]);
  });

  it('checks the plan limit on the primary, not the stale replica that shows one job of two', async () => {
    const third = await server.http.post('/api/jobs', { name: 'third', url: `${target.url}/hook`, cron_expression: '0 0 1 1 *' }, auth());
    expect(third.status).toBe(403);
    expect(await query(primary, `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1`, [account.userId])).toEqual([{ n: 2 }]);
  });

  it('runs the scheduler on the primary: a job due there (not on the replica) fires and its run is stored there', async () => {
    await query(primary, `UPDATE jobs SET next_run_at = now() WHERE id = $1`, [secondJob]);
    await target.waitFor(() => target.requests('/hook').length >= 1, 15_000);
    const stored = await eventually(async () => {
      const rows = await query<{ status: string }>(primary, `SELECT status FROM job_runs WHERE job_id = $1 AND state = 'done'`, [secondJob]);
      return rows.length ? rows : null;
    }, 10_000, 'the scheduled run stored on the primary');
    expect(stored).toEqual([{ status: 'success' }]);
    expect(await query(replica, `SELECT id FROM job_runs WHERE job_id = $1`, [secondJob])).toEqual([]);
    // Its log is read from the replica, which has not received the run.
    expect((await server.http.get(`/api/jobs/${secondJob}/logs`, auth())).body.logs).toEqual([]);
  });

  it('reads everything from the primary without DATABASE_READ_URL', async () => {
    // One server at a time: the embedded database takes only a pool's worth of connections.
    await server.close();
    serverClosed = true;
    const plain = await startTestServer({}, primary);
    try {
      const list = await plain.http.get('/api/jobs', auth());
      expect(list.body.map((j: { name: string }) => j.name)).toEqual(['first', 'second-renamed']);
      const stats = await plain.http.get('/api/dashboard', auth());
      expect([stats.status, stats.body.total_jobs]).toEqual([200, 2]);
      expect((await plain.http.get(`/api/jobs/${firstJob}/logs`, auth())).body.logs).toEqual([]);
    } finally {
      await plain.app.close();
    }
  });

  it('refuses to start when DATABASE_READ_URL cannot be reached, naming the setting', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const config = AppConfig.fromEnvironment({ NODE_ENV: 'test', SCHEDULER_ENABLED: 'false', DATABASE_URL: primary.url, DATABASE_READ_URL: 'postgres://cronbeam:secret@127.0.0.1:1/replica' });
    await expect(createApp(config, { databaseUrl: primary.url, logDestination: new LogCapture() })).rejects.toThrow(/DATABASE_READ_URL: cannot connect to the read replica/);
  });
});
