import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import { AlertReceiver } from '../fakes/alert-receiver';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

type WebhookAlert = { event: string; detail: string; at: string; job: { job_id: string } | null; monitor?: { monitor_id: string } };

/**
 * Alert thresholds with real runs against a local target: a job alerts at
 * its alert_after_failures-th failed run in a row (and on the success that
 * ends them), a monitor at its alert_after_misses-th missed deadline in a row.
 */
describe('alert thresholds', () => {
  let server: TestServer;
  let receiver: AlertReceiver;
  let target: HttpTarget;
  let alice: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const alerts = (path: string): WebhookAlert[] => receiver.received(path).map((r) => JSON.parse(r.body));

  beforeAll(async () => {
    receiver = await AlertReceiver.start();
    target = await HttpTarget.start();
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' });
    alice = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await target?.close();
  });

  it.each([0, 1001, 2.5, '3', null])('refuses alert_after_failures %j with a 422 naming the field', async (value) => {
    const res = await server.http.post('/api/jobs', jobDefinition({ alert_after_failures: value }), as(alice));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'alert_after_failures'], msg: 'alert_after_failures must be a whole number from 1 to 1000' });
  });

  it.each([0, 1001, 'two'])('refuses alert_after_misses %j with a 422 naming the field', async (value) => {
    const res = await server.http.post('/api/monitors', { name: 'm', period_seconds: 60, alert_after_misses: value }, as(alice));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'alert_after_misses'], msg: 'alert_after_misses must be a whole number from 1 to 1000' });
  });

  it('defaults to 1, and answers and replaces the threshold', async () => {
    const job = (await server.http.post('/api/jobs', jobDefinition(), as(alice))).body;
    expect(job.alert_after_failures).toBe(1);
    const replaced = await server.http.put(`/api/jobs/${job.job_id}`, { ...job, alert_after_failures: 4 }, as(alice));
    expect(replaced.status).toBe(200);
    expect((await server.http.get(`/api/jobs/${job.job_id}`, as(alice))).body.alert_after_failures).toBe(4);
    const monitor = (await server.http.post('/api/monitors', { name: 'defaults', period_seconds: 60 }, as(alice))).body;
    expect(monitor.alert_after_misses).toBe(1);
    await server.http.delete(`/api/jobs/${job.job_id}`, as(alice));
    await server.http.delete(`/api/monitors/${monitor.monitor_id}`, as(alice));
  });

  it('takes and answers both thresholds on /prog with an API key, with the same 422s', async () => {
    const key = (await server.http.post('/api/api-keys/generate', { name: 'thresholds' }, as(alice))).body.api_key;
    const auth = { token: key };
    const refused = await server.http.post('/prog/jobs', jobDefinition({ alert_after_failures: 0 }), auth);
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'alert_after_failures']);
    const job = await server.http.post('/prog/jobs', jobDefinition({ notify_on_failure: true, alert_after_failures: 5 }), auth);
    expect(job.body.alert_after_failures).toBe(5);
    const monitor = await server.http.post('/prog/monitors', { name: 'prog-monitor', period_seconds: 60, alert_after_misses: 3 }, auth);
    expect(monitor.body.alert_after_misses).toBe(3);
    expect((await server.http.post('/prog/monitors', { name: 'prog-bad', period_seconds: 60, alert_after_misses: 0 }, auth)).body.detail[0].loc).toEqual(['body', 'alert_after_misses']);
    await server.http.delete(`/prog/jobs/${job.body.job_id}`, auth);
    await server.http.delete(`/prog/monitors/${monitor.body.monitor_id}`, auth);
  });

  it('alerts a job with threshold 3 at its third failed run in a row only, and once on recovery', async () => {
    let healthy = false;
    target.on('/flaky', (_req, res) => {
      res.writeHead(healthy ? 200 : 503);
      res.end(healthy ? 'ok' : 'down');
    });
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'flaky', url: `${target.url}/flaky`, notify_on_failure: true, alert_after_failures: 3 }), as(alice))).body;
    await server.http.post('/api/alert-channels', { name: 'hook', kind: 'webhook', target: receiver.url('/threshold'), job_ids: [job.job_id] }, as(alice));
    const failuresInARow = async () => (await sql<{ n: number }>(server, `SELECT consecutive_failures AS n FROM job_alert_states WHERE job_id = $1`, [job.job_id]))[0]?.n ?? 0;
    /** Runs the job once and waits until the alert rule has counted its outcome. */
    const runAndCount = async (expected: number) => {
      expect((await server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as(alice))).status).toBeLessThan(300);
      await until(failuresInARow, (n) => n === expected);
    };

    await runAndCount(1);
    await runAndCount(2);
    expect(receiver.received('/threshold')).toHaveLength(0);
    await runAndCount(3);
    const [failed] = await receiver.waitFor('/threshold', 1);
    expect(JSON.parse(failed!.body)).toMatchObject({ event: 'failed', job: { job_id: job.job_id }, detail: expect.stringContaining('3 runs failed in a row') });
    // The alert is the third run's: its time is that run's, not the first's or the second's.
    const runs = await sql<{ executed_at: Date }>(server, `SELECT executed_at FROM job_runs WHERE job_id = $1 AND state = 'done' ORDER BY executed_at`, [job.job_id]);
    expect(runs).toHaveLength(3);
    expect(JSON.parse(failed!.body).at).toBe(new Date(runs[2]!.executed_at).toISOString());
    await runAndCount(4); // the same episode: no second alert

    healthy = true;
    await runAndCount(0);
    await receiver.waitFor('/threshold', 2);
    expect(alerts('/threshold').map((a) => a.event)).toEqual(['failed', 'recovered']);

    // A new count starts: one failure is below the threshold again.
    healthy = false;
    await runAndCount(1);
    healthy = true;
    await runAndCount(0);
    expect(alerts('/threshold').map((a) => a.event)).toEqual(['failed', 'recovered']);
  });

  it('takes a monitor with threshold 2 down at its second missed deadline in a row, not the first', async () => {
    const channel = (await server.http.post('/api/alert-channels', { name: 'monitor-hook', kind: 'webhook', target: receiver.url('/monitor-threshold'), job_ids: [] }, as(alice))).body;
    const monitor: Monitor = (
      await server.http.post('/api/monitors', { name: 'nightly-box', period_seconds: 1, grace_seconds: 1, alert_after_misses: 2, channel_ids: [channel.channel_id] }, as(alice))
    ).body;
    const state = async () => (await sql<{ status: string; missed: number }>(server, `SELECT status, missed_deadlines AS missed FROM monitors WHERE id = $1`, [monitor.monitor_id]))[0]!;
    const ping = new URL(monitor.ping_url).pathname;
    expect((await server.http.get(ping)).status).toBe(200);

    // The first missed deadline is counted and logged, and the monitor stays up.
    expect(await until(state, (s) => s.missed === 1 || s.status === 'down')).toEqual({ status: 'up', missed: 1 });
    const [down] = await receiver.waitFor('/monitor-threshold', 1);
    expect(JSON.parse(down!.body)).toMatchObject({ event: 'failed', monitor: { monitor_id: monitor.monitor_id }, detail: expect.stringContaining('2 deadlines missed in a row') });
    expect(await state()).toEqual({ status: 'down', missed: 0 });
    const events = (await server.http.get(`/api/monitors/${monitor.monitor_id}/events`, as(alice))).body.events as Array<{ kind: string }>;
    expect(events.filter((e) => e.kind === 'missed')).toHaveLength(2);

    expect((await server.http.get(ping)).status).toBe(200);
    await receiver.waitFor('/monitor-threshold', 2);
    expect(alerts('/monitor-threshold').map((a) => a.event)).toEqual(['failed', 'recovered']);
    await server.http.delete(`/api/monitors/${monitor.monitor_id}`, as(alice));
  });
});
