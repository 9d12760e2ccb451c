import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures } from './scheduler-fixtures';

jest.setTimeout(60_000);

/** A run arrives within this of its second (the scheduler's target for a burst of 1,000 is 100 ms). */
const LATENESS_TARGET_MS = 100;

/**
 * Schedules to the second, through the API: a job whose cron expression leads
 * with a seconds field fires on each matching second, never early, each
 * execution once.
 */
describe('scheduler: jobs to the second (six-field cron)', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let pro: SignedInAccount;
  const as = (a: SignedInAccount) => ({ token: a.accessToken });

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer(FAST_SCHEDULER_ENV);
    db = await SchedulerFixtures.connect(server.database.url);
    pro = await signUpAndLogin(server);
    await db.query(`UPDATE users SET plan = 'pro' WHERE id = $1`, [pro.userId]);
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  it('*/5 * * * * * fires at :00, :05, :10 ... of each minute, within the target, each run once', async () => {
    const created = await server.http.post('/api/jobs', { name: 'every-five-seconds', url: `${target.url}/five`, cron_expression: '*/5  * * * * *' }, as(pro));
    expect(created.status).toBe(200);
    expect(created.body.cron_expression).toBe('*/5 * * * * *');
    const firstDue = new Date(created.body.next_run_at).getTime();
    expect(firstDue % 5_000).toBe(0);
    expect(firstDue - Date.now()).toBeLessThanOrEqual(5_000);

    await target.waitFor(() => target.requests('/five').length >= 3, 25_000);
    await server.http.post(`/api/jobs/${created.body.job_id}/pause`, undefined, as(pro));
    const arrivals = target.requests('/five').slice(0, 3).map((r) => r.arrivedAt);
    const seconds = arrivals.map((at) => Math.floor(at / 5_000) * 5_000);
    process.stdout.write(`\nSix-field cron */5: arrivals ${arrivals.map((at, i) => `+${(at - seconds[i]).toFixed(1)} ms`).join(', ')} after their second\n`);
    expect(seconds[0]).toBe(firstDue);
    expect(seconds).toEqual([firstDue, firstDue + 5_000, firstDue + 10_000]);
    for (const [i, at] of arrivals.entries()) expect(at - seconds[i]).toBeLessThan(LATENESS_TARGET_MS);
    const ids = target.requests('/five').map((r) => r.headers['x-cronbeam-execution-id']);
    expect(new Set(ids).size).toBe(ids.length);

    const runs = await eventually(async () => {
      const rows = await db.query<{ scheduled_for: Date; status: string }>(`SELECT scheduled_for, status FROM job_runs WHERE job_id = $1 AND state = 'done' ORDER BY scheduled_for`, [created.body.job_id]);
      return rows.length >= 3 ? rows : null;
    });
    expect(runs.slice(0, 3).map((r) => [new Date(r.scheduled_for).getTime(), r.status])).toEqual([
      [firstDue, 'success'],
      [firstDue + 5_000, 'success'],
      [firstDue + 10_000, 'success'],
    ]);
  });

  it('a seconds field with a time of day fires on that second only', async () => {
    const created = await server.http.post('/api/jobs', { name: 'nine-fifteen', url: `${target.url}/nine`, cron_expression: '15 0 9 * * MON-FRI', time_zone: 'Europe/Berlin' }, as(pro));
    expect(created.status).toBe(200);
    const next = new Date(created.body.next_run_at);
    expect(next.getUTCSeconds()).toBe(15);
    expect(next.toLocaleString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })).toBe('09:00:15');
  });
});
