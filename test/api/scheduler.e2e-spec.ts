import { HttpTarget } from '../fakes/http-target';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, hourlyScheduleAwayFromNow, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';

/**
 * How late a request may arrive after its instant here. The scheduler releases runs on the instant
 * (the benchmark measures a few ms); this bound only separates "on the instant" from "a poll or a
 * look-ahead later" with room for a busy test machine.
 */
const ON_TIME_TOLERANCE_MS = 250;

jest.setTimeout(60_000);

describe('scheduler: firing, retries, quota, leases, recovery', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let userId: string;

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer(FAST_SCHEDULER_ENV);
    db = await SchedulerFixtures.connect(server.database.url);
    userId = await db.user('pro');
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  it('fires a job on its due instant, not before, sends its request, logs the run and advances next_run_at', async () => {
    const due = new Date(Date.now() + 1_000);
    const jobId = await db.job(userId, {
      url: `${target.url}/on-time?x=1`,
      method: 'POST',
      headers: { 'X-Custom': 'yes', Host: 'evil.example' },
      body: '{"hello":"world"}',
      cron: '*/5 * * * *',
      nextRunAt: due,
    });
    await target.waitFor(() => target.requests('/on-time').length === 1);
    const [request] = target.requests('/on-time');
    expect(request.arrivedAt).toBeGreaterThanOrEqual(due.getTime());
    expect(request.arrivedAt - due.getTime()).toBeLessThan(ON_TIME_TOLERANCE_MS);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/on-time?x=1');
    expect(request.body).toBe('{"hello":"world"}');
    expect(request.headers['x-custom']).toBe('yes');
    expect(request.headers.host).not.toBe('evil.example');
    expect(request.headers['user-agent']).toMatch(/^Cronbeam\//);

    const [run] = await eventually(async () => {
      const runs = await db.runs(jobId);
      return runs.length === 1 && runs[0].state === 'done' ? runs : null;
    });
    expect(request.headers['x-cronbeam-execution-id']).toBe(run.id);
    expect(run).toMatchObject({ trigger: 'schedule', attempt: 1, status: 'success', response_code: 200, response_body: '{"ok":true}', error_message: null, lease_owner: null });
    expect(new Date(run.scheduled_for).getTime()).toBe(due.getTime());
    expect(run.executed_at).not.toBeNull();
    expect(run.duration_ms).toBeGreaterThanOrEqual(0);

    const job = await eventually(async () => {
      const j = await db.jobRow(jobId);
      return j.status === 'success' ? j : null;
    });
    const next = new Date(job.next_run_at);
    expect(next.getTime()).toBeGreaterThan(due.getTime());
    expect(next.getUTCMinutes() % 5).toBe(0);
    expect(next.getUTCSeconds()).toBe(0);
    expect(new Date(job.last_run_at).getTime()).toBeGreaterThanOrEqual(due.getTime());

    const metrics = (await server.http.get('/metrics')).text;
    expect(metrics).toMatch(/^cronbeam_executions_total\{outcome="success",trigger="schedule"\} [1-9]/m);
    expect(metrics).toMatch(/^cronbeam_dispatch_lateness_seconds_bucket\{le="0\.1"\} [1-9]/m);
  });

  it('does not fire a paused job, and fires it again once resumed', async () => {
    const jobId = await db.job(userId, { url: `${target.url}/paused`, nextRunAt: null, status: 'paused' });
    await schedulerPassed(db, `${target.url}/sentinel`, 500);
    expect(target.requests('/paused')).toHaveLength(0);
    await db.query(`UPDATE jobs SET status = 'scheduled', next_run_at = now() + interval '300 milliseconds' WHERE id = $1`, [jobId]);
    await target.waitFor(() => target.requests('/paused').length === 1);
    expect((await eventually(() => db.jobRow(jobId).then((j) => (j.status === 'success' ? j : null)))).status).toBe('success');
  });

  it('never fires a held job that carries a due time (the due index selects by due time alone; the claim checks the status)', async () => {
    // Every statement that holds a job clears its due time; these rows are written around that, as a bug would.
    const paused = await db.job(userId, { url: `${target.url}/held-paused`, nextRunAt: new Date(Date.now() + 100), status: 'paused' });
    const stopped = await db.job(userId, { url: `${target.url}/held-quota`, nextRunAt: new Date(Date.now() + 100), status: 'quota_reached' });
    await schedulerPassed(db, `${target.url}/held-sentinel`, 500);
    expect(target.requests('/held-paused')).toHaveLength(0);
    expect(target.requests('/held-quota')).toHaveLength(0);
    expect(await db.runs(paused)).toHaveLength(0);
    expect(await db.runs(stopped)).toHaveLength(0);
    await db.query(`DELETE FROM jobs WHERE id IN ($1, $2)`, [paused, stopped]);
  });

  it('retries a 5xx with exponential backoff as queued runs, then succeeds', async () => {
    let calls = 0;
    target.on('/flaky', (_req, res) => {
      calls++;
      res.writeHead(calls <= 2 ? 503 : 200, { 'content-type': 'text/plain' });
      res.end(calls <= 2 ? 'busy' : 'fine');
    });
    const jobId = await db.job(userId, { url: `${target.url}/flaky`, nextRunAt: new Date(Date.now() + 200) });
    await target.waitFor(() => target.requests('/flaky').length === 3);
    const arrivals = target.requests('/flaky').map((r) => r.arrivedAt);
    // The retry time is set in whole milliseconds of the wall clock, the arrivals are read off the monotonic clock:
    // the two can disagree by under a millisecond (seen: 199.93 ms for a 200 ms backoff).
    const clockResolutionMs = 1;
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(100 - clockResolutionMs); // base
    expect(arrivals[2] - arrivals[1]).toBeGreaterThanOrEqual(200 - clockResolutionMs); // base * 2
    const ids = new Set(target.requests('/flaky').map((r) => r.headers['x-cronbeam-execution-id']));
    expect(ids.size).toBe(3);

    const runs = await eventually(async () => {
      const r = await db.runs(jobId);
      return r.length === 3 && r.every((x) => x.state === 'done') ? r : null;
    });
    expect(runs.map((r) => [r.attempt, r.trigger, r.status, r.response_code])).toEqual([
      [1, 'schedule', 'failed', 503],
      [2, 'retry', 'failed', 503],
      [3, 'retry', 'success', 200],
    ]);
    expect(runs[0].error_message).toBe('HTTP 503: the target answered with a server error');
    expect(new Set(runs.map((r) => new Date(r.scheduled_for).getTime())).size).toBe(1);
    expect((await db.jobRow(jobId)).status).toBe('success');
  });

  it('does not retry a 4xx and marks the job failed', async () => {
    target.on('/gone', (_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not here"}');
    });
    const jobId = await db.job(userId, { url: `${target.url}/gone`, nextRunAt: new Date(Date.now() + 200) });
    const job = await eventually(() => db.jobRow(jobId).then((j) => (j.status === 'failed' ? j : null)));
    expect(job.status).toBe('failed');
    await schedulerPassed(db, `${target.url}/sentinel`, 400); // due after the first backoff would have ended
    const runs = await db.runs(jobId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'failed', response_code: 404, response_body: '{"error":"not here"}' });
    expect(runs[0].error_message).toContain('HTTP 404');
    expect(target.requests('/gone')).toHaveLength(1);
  });

  it('records a timeout by name and retries it', async () => {
    target.on('/slow', (_req, res) => {
      setTimeout(() => res.end('late'), 1_500);
    });
    const jobId = await db.job(userId, { url: `${target.url}/slow`, nextRunAt: new Date(Date.now() + 200) });
    const runs = await eventually(async () => {
      const r = await db.runs(jobId);
      return r.length >= 2 && r[0].state === 'done' ? r : null;
    });
    expect(runs[0]).toMatchObject({ status: 'failed', response_code: null, error_message: 'Timeout: no response within 1000 ms' });
    expect(runs[0].duration_ms).toBeGreaterThanOrEqual(990);
    expect(runs[1]).toMatchObject({ attempt: 2, trigger: 'retry' });
    await db.query(`UPDATE jobs SET status = 'paused' WHERE id = $1`, [jobId]);
  });

  it('keeps the first 64 KiB of a long response and stops downloading it', async () => {
    const body = 'x'.repeat(256 * 1024);
    target.on('/long', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(body);
    });
    const jobId = await db.job(userId, { url: `${target.url}/long`, nextRunAt: new Date(Date.now() + 200) });
    const [run] = await eventually(async () => {
      const r = await db.runs(jobId);
      return r[0]?.state === 'done' ? r : null;
    });
    expect(run).toMatchObject({ status: 'success', response_code: 200 });
    expect(run.response_body).toBe(body.slice(0, 64 * 1024));
  });

  it('names a refused connection and retries it', async () => {
    const closed = await HttpTarget.start();
    const url = `${closed.url}/gone`;
    await closed.close(); // nothing listens on that port any more
    const jobId = await db.job(userId, { url, nextRunAt: new Date(Date.now() + 200) });
    const runs = await eventually(async () => {
      const r = await db.runs(jobId);
      return r.length >= 2 && r[0].state === 'done' ? r : null;
    });
    expect(runs[0]).toMatchObject({ status: 'failed', response_code: null });
    expect(runs[0].error_message).toMatch(/^Connection refused by 127\.0\.0\.1:\d+$/);
    expect(runs[1]).toMatchObject({ attempt: 2, trigger: 'retry' });
    await db.query(`UPDATE jobs SET status = 'paused' WHERE id = $1`, [jobId]);
  });

  it('names a DNS failure', async () => {
    const jobId = await db.job(userId, { url: 'http://no-such-host.invalid/x', nextRunAt: new Date(Date.now() + 200) });
    const [run] = await eventually(async () => {
      const r = await db.runs(jobId);
      return r[0]?.state === 'done' ? r : null;
    });
    expect(run.status).toBe('failed');
    expect(run.error_message).toMatch(/^DNS lookup failed for no-such-host\.invalid/);
  });

  it('takes over a run whose lease expired (its instance crashed) and executes it once', async () => {
    const jobId = await db.job(userId, { url: `${target.url}/orphan`, nextRunAt: new Date(Date.now() + 3_600_000) });
    const [orphan] = await db.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, lease_owner, lease_expires_at)
       VALUES ($1, $2, 'schedule', now() - interval '1 minute', now() - interval '1 minute', 'running', 'crashed-instance', now() - interval '1 second')
       RETURNING id`,
      [jobId, userId],
    );
    await target.waitFor(() => target.requests('/orphan').length === 1);
    expect(target.requests('/orphan')[0].headers['x-cronbeam-execution-id']).toBe(orphan.id);
    const [run] = await eventually(async () => {
      const r = await db.runs(jobId);
      return r[0]?.state === 'done' ? r : null;
    });
    expect(run).toMatchObject({ id: orphan.id, status: 'success', lease_owner: null });
    const stuck = await db.query(`SELECT count(*)::int AS n FROM job_runs WHERE state = 'running' AND lease_expires_at < now()`);
    expect(stuck[0].n).toBe(0);
  });

  it('after downtime fires the latest missed due time once and records the others as missed', async () => {
    const { cron, lastDue: lastBoundary, hour } = hourlyScheduleAwayFromNow();
    const jobId = await db.job(userId, { url: `${target.url}/outage`, cron, nextRunAt: new Date(lastBoundary - 4 * hour) });
    await target.waitFor(() => target.requests('/outage').length === 1);
    const runs = await eventually(async () => {
      const r = await db.runs(jobId);
      return r.length === 5 && r.every((x) => x.state === 'done') ? r : null;
    });
    expect(runs.slice(0, 4).map((r) => r.status)).toEqual(['missed', 'missed', 'missed', 'missed']);
    expect(runs[0].error_message).toMatch(/^Missed:/);
    expect(runs[4]).toMatchObject({ trigger: 'recovery', status: 'success' });
    expect(new Date(runs[4].scheduled_for).getTime()).toBe(lastBoundary);
    const job = await db.jobRow(jobId);
    expect(new Date(job.next_run_at).getTime()).toBe(lastBoundary + hour);
    await schedulerPassed(db, `${target.url}/sentinel`, 300);
    expect(target.requests('/outage')).toHaveLength(1);
  });

  it('at the quota limit skips the run with reason quota, stops the job, and restores it in the next period', async () => {
    const freeUser = await db.user('free');
    const period = new Date();
    const periodStart = `${period.getUTCFullYear()}-${String(period.getUTCMonth() + 1).padStart(2, '0')}-01`;
    await db.query(`INSERT INTO usage_periods (account_id, period_start, executions) VALUES ($1, $2, 100)`, [freeUser, periodStart]);
    const jobId = await db.job(freeUser, { url: `${target.url}/quota`, cron: '0 0 1 1 *', nextRunAt: new Date(Date.now() + 200) });
    const job = await eventually(() => db.jobRow(jobId).then((j) => (j.status === 'quota_reached' ? j : null)));
    expect(job.next_run_at).toBeNull();
    const [run] = await db.runs(jobId);
    expect(run).toMatchObject({ state: 'done', status: 'skipped', skip_reason: 'quota' });
    expect(run.error_message).toContain('quota of 100');
    expect(target.requests('/quota')).toHaveLength(0);

    // A new period: this month's usage row is now last month's.
    await db.query(`UPDATE usage_periods SET period_start = period_start - interval '1 month' WHERE account_id = $1`, [freeUser]);
    const restored = await eventually(() => db.jobRow(jobId).then((j) => (j.status === 'scheduled' ? j : null)));
    expect(new Date(restored.next_run_at).getUTCMonth()).toBe(0); // '0 0 1 1 *': next 1 January
    // The account's audit log says so, in the statement that resumed it: the service acted, not a member.
    const entries = await db.query(`SELECT * FROM audit_events WHERE account_id = $1 AND action = 'quota.period_started'`, [freeUser]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_user_id: null, actor_key_id: null, actor_ip: null, request_id: null, target_type: 'account', target_id: freeUser });
    expect(entries[0].changes).toEqual({ resumed_job_ids: { before: null, after: [jobId] } });
  });

  it('counts each fired execution in the usage period', async () => {
    const basicUser = await db.user('basic');
    const jobId = await db.job(basicUser, { url: `${target.url}/counted`, nextRunAt: new Date(Date.now() + 200) });
    await eventually(() => db.jobRow(jobId).then((j) => j.status === 'success'));
    const [usage] = await db.query(`SELECT executions FROM usage_periods WHERE account_id = $1`, [basicUser]);
    expect(usage.executions).toBe(1);
  });
});
