import { MAINTENANCE_LIMITS, MAINTENANCE_MESSAGES, type MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import type { JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import { AlertReceiver } from '../fakes/alert-receiver';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { jobDefinition as anyJob, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import { FAST_SCHEDULER_ENV } from './scheduler-fixtures';

jest.setTimeout(90_000);

const HOUR = 3_600_000;
/** Jobs due once a year, so the running scheduler fires none of them during the test unless it sets its own schedule. */
const jobDefinition = (fields: Record<string, unknown> = {}) => anyJob({ cron_expression: '0 0 1 1 *', ...fields });
/** A one-off window open from a minute ago for an hour. */
const openNow = (fields: Record<string, unknown> = {}) => ({
  name: 'deploy',
  starts_at: new Date(Date.now() - 60_000).toISOString(),
  ends_at: new Date(Date.now() + HOUR).toISOString(),
  ...fields,
});

/**
 * Maintenance windows through the real API, scheduler and alert path, with a
 * local target and a local webhook receiver: a failure inside a window sends
 * nothing and its log line says which window muted it; outside one it
 * alerts; a pausing window turns due runs into skipped ones that are never sent.
 */
describe('maintenance windows', () => {
  let server: TestServer;
  let receiver: AlertReceiver;
  let target: HttpTarget;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const logs = async (who: SignedInAccount, jobId: string): Promise<JobLogEntry[]> => (await server.http.get(`/api/jobs/${jobId}/logs`, as(who))).body.logs;

  beforeAll(async () => {
    receiver = await AlertReceiver.start();
    target = await HttpTarget.start();
    target.on('/down', (_req, res) => {
      res.writeHead(503);
      res.end('down');
    });
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await target?.close();
  });

  it('creates, lists, replaces and deletes a window, scoped to its owner', async () => {
    const job = (await server.http.post('/api/jobs', jobDefinition(), as(alice))).body;
    const created = await server.http.post('/api/maintenance-windows', openNow({ name: 'one job', job_id: job.job_id }), as(alice));
    expect(created.status).toBe(200);
    const window: MaintenanceWindow = created.body;
    expect(window).toMatchObject({ name: 'one job', job_id: job.job_id, tag: null, cron_expression: null, duration_minutes: null, time_zone: 'UTC', pause_runs: false, active: true });

    const recurring = { name: 'nightly', tag: 'Prod', cron_expression: '0 2 * * SUN', duration_minutes: 90, time_zone: 'Europe/Berlin' };
    const replaced = await server.http.put(`/api/maintenance-windows/${window.window_id}`, recurring, as(alice));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ window_id: window.window_id, job_id: null, tag: 'prod', starts_at: null, ends_at: null, cron_expression: '0 2 * * SUN', duration_minutes: 90 });
    expect((await server.http.get('/api/maintenance-windows', as(alice))).body.map((w: MaintenanceWindow) => w.window_id)).toContain(window.window_id);

    // Another account neither sees nor changes it, and cannot name alice's job.
    expect((await server.http.get('/api/maintenance-windows', as(bob))).body).toEqual([]);
    expect((await server.http.get(`/api/maintenance-windows/${window.window_id}`, as(bob))).status).toBe(404);
    expect((await server.http.put(`/api/maintenance-windows/${window.window_id}`, recurring, as(bob))).status).toBe(404);
    expect((await server.http.delete(`/api/maintenance-windows/${window.window_id}`, as(bob))).status).toBe(404);
    const stranger = await server.http.post('/api/maintenance-windows', openNow({ job_id: job.job_id }), as(bob));
    expect(stranger.status).toBe(422);
    expect(stranger.body.detail[0]).toMatchObject({ loc: ['body', 'job_id'], msg: MAINTENANCE_MESSAGES.unknownJob });

    expect((await server.http.delete(`/api/maintenance-windows/${window.window_id}`, as(alice))).status).toBe(200);
    expect((await server.http.get(`/api/maintenance-windows/${window.window_id}`, as(alice))).status).toBe(404);
    expect((await server.http.get('/api/maintenance-windows/not-a-uuid', as(alice))).status).toBe(404);
    await server.http.delete(`/api/jobs/${job.job_id}`, as(alice));
  });

  it.each([
    [{ name: 'x' }, 'starts_at', MAINTENANCE_MESSAGES.timing],
    [openNow({ ends_at: new Date(Date.now() - 2 * HOUR).toISOString() }), 'ends_at', MAINTENANCE_MESSAGES.endsAt],
    [{ name: 'x', cron_expression: 'every night', duration_minutes: 60 }, 'cron_expression', MAINTENANCE_MESSAGES.cron],
    [{ name: 'x', cron_expression: '0 2 * * *', duration_minutes: 0 }, 'duration_minutes', MAINTENANCE_MESSAGES.duration],
    [{ name: 'x', cron_expression: '0 2 * * *', duration_minutes: 60, time_zone: 'Berlin' }, 'time_zone', MAINTENANCE_MESSAGES.timeZone],
    [openNow({ job_id: '5b0f7a2e-9c1d-4e8a-b3f6-2d4c6e8a0b1c', tag: 'prod' }), 'tag', MAINTENANCE_MESSAGES.scope],
    [openNow({ tag: 'Not a tag!' }), 'tag', undefined],
    [openNow({ pause_runs: 'yes' }), 'pause_runs', MAINTENANCE_MESSAGES.pauseRuns],
    [openNow({ colour: 'red' }), undefined, 'Unknown field: colour'],
  ])('refuses %j with a 422 naming the field', async (body, field, msg) => {
    const res = await server.http.post('/api/maintenance-windows', body, as(alice));
    expect(res.status).toBe(422);
    const issue = res.body.detail[0];
    expect(issue.loc).toEqual(field ? ['body', field] : ['body']);
    if (msg) expect(issue.msg).toBe(msg);
  });

  it('works on /prog with an API key, with the same rules', async () => {
    const key = (await server.http.post('/api/api-keys/generate', { name: 'windows' }, as(alice))).body.api_key;
    const auth = { token: key };
    const refused = await server.http.post('/prog/maintenance-windows', { name: 'x', cron_expression: '0 2 * * *' }, auth);
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'duration_minutes']);
    const created = await server.http.post('/prog/maintenance-windows', { name: 'prog', cron_expression: '0 2 * * *', duration_minutes: 30 }, auth);
    expect(created.status).toBe(200);
    expect((await server.http.get(`/prog/maintenance-windows/${created.body.window_id}`, auth)).body).toEqual(created.body);
    expect((await server.http.get('/prog/maintenance-windows', auth)).body.map((w: MaintenanceWindow) => w.window_id)).toContain(created.body.window_id);
    expect((await server.http.delete(`/prog/maintenance-windows/${created.body.window_id}`, auth)).status).toBe(200);
  });

  it(`holds the limit of ${MAINTENANCE_LIMITS.windowsPerAccount} windows per account under concurrent creations`, async () => {
    const carol = await signUpAndLogin(server);
    const answers = await Promise.all(
      Array.from({ length: MAINTENANCE_LIMITS.windowsPerAccount + 5 }, (_, i) =>
        server.http.post('/api/maintenance-windows', { name: `w${i}`, cron_expression: '0 2 * * *', duration_minutes: 30 }, as(carol)),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(MAINTENANCE_LIMITS.windowsPerAccount);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual([403, 403, 403, 403, 403]);
    expect(refused[0]!.body.detail).toBe(MAINTENANCE_MESSAGES.limit);
    expect((await server.http.get('/api/maintenance-windows', as(carol))).body).toHaveLength(MAINTENANCE_LIMITS.windowsPerAccount);
  });

  it("mutes a tagged job's failure alert inside a window (its log says which) and alerts once the window is gone", async () => {
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'nightly-etl', url: `${target.url}/down`, notify_on_failure: true, tags: ['etl'] }), as(alice))).body;
    const channel = (await server.http.post('/api/alert-channels', { name: 'hook', kind: 'webhook', target: receiver.url('/muted'), job_ids: [job.job_id] }, as(alice))).body;
    const window = (await server.http.post('/api/maintenance-windows', openNow({ name: 'warehouse upgrade', tag: 'etl' }), as(alice))).body;
    const failuresInARow = async () => (await sql<{ n: number }>(server, `SELECT consecutive_failures AS n FROM job_alert_states WHERE job_id = $1`, [job.job_id]))[0]?.n ?? 0;

    expect((await server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as(alice))).status).toBeLessThan(300);
    const [muted] = await until(
      () => logs(alice, job.job_id),
      (l) => l.some((e) => e.alert_note !== null),
    );
    expect(muted).toMatchObject({ status: 'failed', alert_note: 'Alert muted by maintenance window "warehouse upgrade"' });
    // The alert rule has finished with that run (the note is its last step): nothing was queued, sent or counted.
    expect(receiver.received('/muted')).toHaveLength(0);
    expect((await server.http.get(`/api/alert-channels/${channel.channel_id}/deliveries`, as(alice))).body).toEqual({ deliveries: [] });
    expect(await failuresInARow()).toBe(0);
    expect(await sql(server, `SELECT 1 FROM alert_queue WHERE channel_id = $1`, [channel.channel_id])).toEqual([]);

    // Without the window the same failure alerts, and its log line has no note.
    expect((await server.http.delete(`/api/maintenance-windows/${window.window_id}`, as(alice))).status).toBe(200);
    expect((await server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as(alice))).status).toBeLessThan(300);
    const [alert] = await receiver.waitFor('/muted', 1);
    expect(JSON.parse(alert!.body)).toMatchObject({ event: 'failed', job: { job_id: job.job_id } });
    const after = await logs(alice, job.job_id);
    expect(after.map((e) => e.alert_note)).toEqual([null, 'Alert muted by maintenance window "warehouse upgrade"']);
    await server.http.delete(`/api/jobs/${job.job_id}`, as(alice));
  });

  it("leaves other jobs' alerts alone: a window on one job does not mute another", async () => {
    const covered = (await server.http.post('/api/jobs', jobDefinition({ url: `${target.url}/down`, notify_on_failure: true }), as(alice))).body;
    const other = (await server.http.post('/api/jobs', jobDefinition({ url: `${target.url}/down`, notify_on_failure: true }), as(alice))).body;
    await server.http.post('/api/alert-channels', { name: 'other-hook', kind: 'webhook', target: receiver.url('/other'), job_ids: [other.job_id] }, as(alice));
    const window = (await server.http.post('/api/maintenance-windows', openNow({ job_id: covered.job_id }), as(alice))).body;
    await server.http.post(`/api/jobs/${other.job_id}/run`, undefined, as(alice));
    const [alert] = await receiver.waitFor('/other', 1);
    expect(JSON.parse(alert!.body)).toMatchObject({ event: 'failed', job: { job_id: other.job_id } });
    expect((await logs(alice, other.job_id))[0]!.alert_note).toBeNull();
    await server.http.delete(`/api/maintenance-windows/${window.window_id}`, as(alice));
    await server.http.delete(`/api/jobs/${covered.job_id}`, as(alice));
    await server.http.delete(`/api/jobs/${other.job_id}`, as(alice));
  });

  it("mutes a monitor going down inside a window on its tag (the server log says which) and leaves other monitors' alerts alone", async () => {
    // Bob's account alone: his channel takes every alert of his, and only his monitors fail here.
    await server.http.post('/api/alert-channels', { name: 'all-of-bob', kind: 'webhook', target: receiver.url('/bob-monitors') }, as(bob));
    const window = (await server.http.post('/api/maintenance-windows', openNow({ name: 'lab rewiring', tag: 'lab' }), as(bob))).body;
    const lab = (await server.http.post('/api/monitors', { name: 'lab-backup', period_seconds: 3600, tags: ['lab'] }, as(bob))).body;
    const prod = (await server.http.post('/api/monitors', { name: 'prod-backup', period_seconds: 3600 }, as(bob))).body;
    const failPing = (monitor: { ping_url: string }) => server.http.post(`${new URL(monitor.ping_url).pathname}/fail`);
    const mutedLine = `Alert for monitor ${lab.monitor_id} (failed) muted by maintenance window "lab rewiring"`;

    expect((await failPing(lab)).status).toBe(200);
    expect((await failPing(prod)).status).toBe(200);
    const [alert] = await receiver.waitFor('/bob-monitors', 1);
    expect(JSON.parse(alert!.body)).toMatchObject({ event: 'failed', monitor: { name: 'prod-backup' } });
    // The muted alert was decided (and logged) by the time the other one is delivered; nothing for it follows.
    await until(async () => server.logs.entries().some((entry) => entry.msg === mutedLine), (logged) => logged);
    expect(receiver.received('/bob-monitors').map((r) => JSON.parse(r.body).monitor.name)).toEqual(['prod-backup']);
    const mails = (await server.http.get('/api/dev/outbox')).body as Array<{ to: string; subject: string }>;
    expect(mails.filter((m) => m.to === bob.email && m.subject.includes('lab-backup'))).toEqual([]);
    expect(mails.filter((m) => m.to === bob.email && m.subject === 'Cronbeam: monitor "prod-backup" is down')).toHaveLength(1);

    // Recoveries are never muted (one may close an episode opened before the window).
    expect((await server.http.post(new URL(lab.ping_url).pathname)).status).toBe(200);
    await receiver.waitFor('/bob-monitors', 2);
    expect(JSON.parse(receiver.received('/bob-monitors')[1]!.body)).toMatchObject({ event: 'recovered', monitor: { name: 'lab-backup' } });

    // Without the window the same monitor's failure alerts.
    expect((await server.http.delete(`/api/maintenance-windows/${window.window_id}`, as(bob))).status).toBe(200);
    expect((await failPing(lab)).status).toBe(200);
    await receiver.waitFor('/bob-monitors', 3);
    expect(JSON.parse(receiver.received('/bob-monitors')[2]!.body)).toMatchObject({ event: 'failed', monitor: { name: 'lab-backup' } });
    for (const m of [lab, prod]) await server.http.delete(`/api/monitors/${m.monitor_id}`, as(bob));
  });

  it('records the runs due inside an account-wide pausing window as skipped, with the reason, and never sends them', async () => {
    const window = (await server.http.post('/api/maintenance-windows', openNow({ name: 'freeze', pause_runs: true }), as(alice))).body;
    target.on('/paused', (_req, res) => {
      res.writeHead(200);
      res.end('ok');
    });
    const job = (await server.http.post('/api/jobs', jobDefinition({ url: `${target.url}/paused`, cron_expression: '* * * * * *' }), as(alice))).body;
    const skipped = await until(
      () => logs(alice, job.job_id),
      (l) => l.filter((e) => e.status === 'skipped').length >= 2,
    );
    expect(skipped[0]).toMatchObject({ status: 'skipped', error_message: 'Skipped: paused by maintenance window "freeze"' });
    expect(skipped.every((e) => e.status === 'skipped')).toBe(true);
    expect(target.requests('/paused')).toHaveLength(0);
    const reasons = await sql<{ skip_reason: string }>(server, `SELECT DISTINCT skip_reason FROM job_runs WHERE job_id = $1`, [job.job_id]);
    expect(reasons).toEqual([{ skip_reason: 'maintenance' }]);

    // Once the window is gone the job runs again.
    await server.http.delete(`/api/maintenance-windows/${window.window_id}`, as(alice));
    await until(
      async () => target.requests('/paused').length,
      (n) => n > 0,
    );
    await server.http.delete(`/api/jobs/${job.job_id}`, as(alice));
  });
});
