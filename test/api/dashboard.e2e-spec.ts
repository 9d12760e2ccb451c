import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

describe('dashboard stats (/api/dashboard)', () => {
  let server: TestServer;
  let user: SignedInAccount;
  let other: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });

  beforeAll(async () => {
    // The counts come from rows this test writes; the test server's scheduler is off, so no run adds its own.
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    user = await signUpAndLogin(server);
    other = await signUpAndLogin(server);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('shows the free plan defaults for a new account', async () => {
    const res = await server.http.get('/api/dashboard', as(user));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total_jobs: 0,
      active_jobs: 0,
      failed_jobs: 0,
      job_count: 0,
      max_jobs: 2,
      total_monitors: 0,
      monitors_down: 0,
      executions_used: 0,
      execution_quota: 100,
      plan: 'free',
      n8n_deployments_used: 0,
      n8n_deployments_quota: 1,
    });
  });

  it('counts the caller’s jobs by status, this month’s executions and the plan’s limits', async () => {
    await setPlan(server, user.userId, 'basic');
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push((await server.http.post('/api/jobs', jobDefinition(), as(user))).body.job_id);
    await server.http.post(`/api/jobs/${ids[0]}/pause`, undefined, as(user)); // paused
    await server.http.post(`/api/jobs/${ids[1]}/resume`, undefined, as(user)); // scheduled
    // Outcomes the scheduler records:
    await sql(server, `UPDATE jobs SET status = 'failed' WHERE id = $1`, [ids[2]]);
    await sql(server, `UPDATE jobs SET status = 'success' WHERE id = $1`, [ids[3]]);
    await sql(server, `UPDATE jobs SET status = 'quota_reached', next_run_at = NULL WHERE id = $1`, [ids[4]]);
    const thisMonth = new Date();
    const periodStart = `${thisMonth.getUTCFullYear()}-${String(thisMonth.getUTCMonth() + 1).padStart(2, '0')}-01`;
    await sql(server, 'INSERT INTO usage_periods (account_id, period_start, executions) VALUES ($1, $2, 42), ($1, $3, 999)', [user.userId, periodStart, '2020-01-01']);
    await server.http.post('/api/jobs', jobDefinition(), as(other));
    await sql(server, 'INSERT INTO usage_periods (account_id, period_start, executions) VALUES ($1, $2, 7)', [other.userId, periodStart]);

    const res = await server.http.get('/api/dashboard', as(user));
    expect(res.body).toEqual({
      total_jobs: 6,
      // Scheduled to run, whatever the last outcome: pending, scheduled, failed and success; not paused or held by the quota.
      active_jobs: 4,
      failed_jobs: 1,
      job_count: 6,
      max_jobs: 10,
      total_monitors: 0,
      monitors_down: 0,
      executions_used: 42,
      execution_quota: 1500,
      plan: 'basic',
      n8n_deployments_used: 0,
      n8n_deployments_quota: 5,
    });
    const afterDelete = await server.http.delete(`/api/jobs/${ids[2]}`, as(user));
    expect(afterDelete.status).toBe(200);
    expect((await server.http.get('/api/dashboard', as(user))).body).toMatchObject({ total_jobs: 5, active_jobs: 3, failed_jobs: 0 });

    // Heartbeat monitors sit beside the jobs and use places of the job limit.
    const monitor = (await server.http.post('/api/monitors', { name: 'nightly-backup', period_seconds: 3600 }, as(user))).body;
    await server.http.post('/api/monitors', { name: 'etl', period_seconds: 60 }, as(user));
    await server.http.post(`${new URL(monitor.ping_url).pathname}/fail`);
    expect((await server.http.get('/api/dashboard', as(user))).body).toMatchObject({ total_jobs: 5, job_count: 7, total_monitors: 2, monitors_down: 1 });
  });

  it('requires a bearer token', async () => {
    expect((await server.http.get('/api/dashboard')).status).toBe(401);
  });
});
