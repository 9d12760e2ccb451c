import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';

jest.setTimeout(60_000);

/**
 * A run arrives within its own second after its instant, never before it.
 * The lateness targets are the benchmark's (`npm run bench -- --scenarios=
 * recurring,oneoff`): this file shares two cores with another test file and a
 * browser, where a few hundred milliseconds of scheduling delay say nothing
 * about the scheduler.
 */
const WITHIN_ITS_SECOND_MS = 1_000;
const SECOND = 1_000;

/**
 * The schedule forms and policies of docs/adr/0172-schedule-forms.md through
 * the API, at second precision: six-field cron, intervals, one-off runs,
 * windows, jitter, overlap and catch-up; their 422s and the preview.
 */
describe('scheduler: schedule forms and policies', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let pro: SignedInAccount;
  let apiKey: string;
  const as = (a: SignedInAccount) => ({ token: a.accessToken });
  const job = (name: string, path: string, schedule: Record<string, unknown>) => ({ name, url: `${target.url}${path}`, retry: { attempts: 0 }, ...schedule });
  const runsOf = (jobId: string) =>
    db.query<{ scheduled_for: Date; status: string; trigger: string; skip_reason: string | null; error_message: string | null }>(
      `SELECT scheduled_for, status, trigger, skip_reason, error_message FROM job_runs WHERE job_id = $1 AND state = 'done' ORDER BY scheduled_for`,
      [jobId],
    );

  beforeAll(async () => {
    target = await HttpTarget.start();
    // Requests of the overlap test take 2.5 s: the server's ceiling is raised above it.
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, EXECUTION_TIMEOUT_MS: '5000' });
    db = await SchedulerFixtures.connect(server.database.url);
    pro = await signUpAndLogin(server);
    await db.query(`UPDATE accounts SET plan = 'pro' WHERE id = $1`, [pro.userId]);
    const key = await server.http.post('/api/api-keys/generate', { name: 'schedules' }, as(pro));
    apiKey = key.body.api_key;
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  it('*/5 * * * * * fires at :00, :05, :10 ... each within its second, each due instant once', async () => {
    const created = await server.http.post('/api/jobs', job('every-five', '/five', { cron_expression: '*/5 * * * * *' }), as(pro));
    expect(created.status).toBe(200);
    const firstDue = Date.parse(created.body.next_run_at);
    expect(firstDue % (5 * SECOND)).toBe(0);
    await target.waitFor(() => target.requests('/five').length >= 3, 25_000);
    await server.http.post(`/api/jobs/${created.body.job_id}/pause`, undefined, as(pro));
    const arrivals = target.requests('/five').map((r) => r.arrivedAt);
    const instants = arrivals.map((at) => Math.floor(at / (5 * SECOND)) * 5 * SECOND);
    expect(instants.slice(0, 3)).toEqual([firstDue, firstDue + 5 * SECOND, firstDue + 10 * SECOND]);
    for (const [i, at] of arrivals.entries()) expect(at - instants[i]).toBeLessThan(WITHIN_ITS_SECOND_MS);
    expect(new Set(instants).size).toBe(instants.length);
  });

  it('every_seconds with jitter: runs at anchor + k × interval + the same offset the preview shows', async () => {
    const schedule = { every_seconds: 2, jitter_seconds: 1 };
    const preview = await server.http.post('/api/jobs/schedule-preview', { name: 'every-two', ...schedule, count: 3 }, as(pro));
    expect(preview.status).toBe(200);
    const offset = preview.body.jitter_offset_seconds * SECOND;
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(SECOND);
    const created = await server.http.post('/api/jobs', job('every-two', '/two', schedule), as(pro));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ cron_expression: null, every_seconds: 2, jitter_seconds: 1 });
    const next = Date.parse(created.body.next_run_at);
    // Anchored to the creation second: every instant is that second + 2k s, shifted by the offset.
    const anchor = Math.floor(Date.parse(created.body.created_at) / SECOND) * SECOND;
    expect((next - offset - anchor) % (2 * SECOND)).toBe(0);
    expect(Date.parse(preview.body.next_runs[1]) - Date.parse(preview.body.next_runs[0])).toBe(2 * SECOND);
    expect(Date.parse(preview.body.next_runs[0]) % SECOND).toBe(offset % SECOND);

    await target.waitFor(() => target.requests('/two').length >= 3, 15_000);
    await server.http.post(`/api/jobs/${created.body.job_id}/pause`, undefined, as(pro));
    const arrivals = target.requests('/two').slice(0, 3).map((r) => r.arrivedAt);
    arrivals.forEach((at, i) => {
      const due = next + i * 2 * SECOND;
      expect(at).toBeGreaterThanOrEqual(due - 1);
      expect(at - due).toBeLessThan(WITHIN_ITS_SECOND_MS);
    });
    const runs = await eventually(async () => ((await runsOf(created.body.job_id)).length >= 3 ? runsOf(created.body.job_id) : null));
    expect(runs.slice(0, 3).map((r) => new Date(r.scheduled_for).getTime())).toEqual([next, next + 2 * SECOND, next + 4 * SECOND]);
  });

  it('a run_at job fires once, then keeps its outcome and has no next run', async () => {
    const runAt = new Date(Math.ceil((Date.now() + 1_500) / SECOND) * SECOND);
    const created = await server.http.post('/api/jobs', job('once', '/once', { run_at: runAt.toISOString() }), as(pro));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ run_at: runAt.toISOString(), next_run_at: runAt.toISOString(), cron_expression: null });
    await target.waitFor(() => target.requests('/once').length === 1, 10_000);
    expect(target.requests('/once')[0].arrivedAt - runAt.getTime()).toBeLessThan(WITHIN_ITS_SECOND_MS);
    const done = await eventually(async () => {
      const res = await server.http.get(`/api/jobs/${created.body.job_id}`, as(pro));
      return res.body.status === 'success' ? res.body : null;
    });
    expect(done.next_run_at).toBeNull();
    await schedulerPassed(db, `${target.url}/sentinel`, 1_500);
    expect(target.requests('/once')).toHaveLength(1);
  });

  it('overlap skip: a due run whose previous run is in flight is recorded as skipped, not sent', async () => {
    let inFlight = 0;
    let mostAtOnce = 0;
    target.on('/slow', (_req, res) => {
      mostAtOnce = Math.max(mostAtOnce, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200).end('done');
      }, 2_500);
    });
    // An account of its own, so that its quota counts this job's executions only.
    const skipper = await signUpAndLogin(server);
    await db.query(`UPDATE accounts SET plan = 'pro' WHERE id = $1`, [skipper.userId]);
    const created = await server.http.post('/api/jobs', job('slow-one', '/slow', { every_seconds: 1, overlap: 'skip', timeout_seconds: 5 }), as(skipper));
    expect(created.status).toBe(200);
    expect(created.body.overlap).toBe('skip');
    await target.waitFor(() => target.requests('/slow').length >= 2, 15_000);
    await server.http.post(`/api/jobs/${created.body.job_id}/pause`, undefined, as(skipper));
    const runs = await eventually(async () => {
      const rows = await runsOf(created.body.job_id);
      return rows.filter((r) => r.status === 'success').length >= 2 ? rows : null;
    });
    const sent = runs.filter((r) => r.status === 'success').map((r) => new Date(r.scheduled_for).getTime());
    const skipped = runs.filter((r) => r.status === 'skipped');
    // Sent at t, in flight until t + 2.5 s: t + 1 and t + 2 are skipped, t + 3 is sent.
    expect(sent[1] - sent[0]).toBe(3 * SECOND);
    expect(skipped.map((r) => new Date(r.scheduled_for).getTime()).filter((t) => t < sent[1])).toEqual([sent[0] + SECOND, sent[0] + 2 * SECOND]);
    expect(skipped[0]).toMatchObject({ skip_reason: 'overlap', error_message: expect.stringContaining('still in flight') });
    expect(mostAtOnce).toBe(1);
    // Skipped runs were not executions: the quota counts the sent ones only.
    await eventually(async () => {
      const [usage] = await db.query<{ used: number }>(`SELECT coalesce(sum(executions), 0)::int AS used FROM usage_periods WHERE account_id = $1`, [skipper.userId]);
      const executed = (await runsOf(created.body.job_id)).filter((r) => r.status !== 'skipped' && r.status !== 'missed').length;
      return usage.used === executed && executed >= 2;
    }, 10_000, 'executions counted = runs sent');
  });

  it('catch_up none fires nothing missed after a pause or an outage; all_within fires the window', async () => {
    const none = await server.http.post('/api/jobs', job('none-after-pause', '/none', { every_seconds: 1, catch_up: 'none' }), as(pro));
    expect(none.status).toBe(200);
    await target.waitFor(() => target.requests('/none').length >= 1, 10_000);
    const paused = await server.http.post(`/api/jobs/${none.body.job_id}/pause`, undefined, as(pro));
    const pausedAt = Date.now();
    await eventually(async () => Date.now() > pausedAt + 2_500);
    const resumed = await server.http.post(`/api/jobs/${none.body.job_id}/resume`, undefined, as(pro));
    const resumedAt = Date.now();
    expect(paused.status).toBe(200);
    expect(Date.parse(resumed.body.next_run_at)).toBeGreaterThan(resumedAt - 1);
    await target.waitFor(() => target.requests('/none').some((r) => r.arrivedAt > resumedAt), 10_000);
    await server.http.post(`/api/jobs/${none.body.job_id}/pause`, undefined, as(pro));
    const gap = target.requests('/none').filter((r) => r.arrivedAt > pausedAt + 500 && r.arrivedAt < resumedAt);
    expect(gap).toEqual([]);
    const runsNone = await runsOf(none.body.job_id);
    expect(runsNone.filter((r) => r.trigger === 'recovery')).toEqual([]);

    // An outage: the next run was due 30 s ago (the scheduler was down); none records the missed ones and sends nothing for them.
    const startsAt = new Date(Math.floor(Date.now() / SECOND) * SECOND - 60 * SECOND).toISOString();
    const outage = await server.http.post('/api/jobs', job('none-after-outage', '/outage-none', { every_seconds: 10, starts_at: startsAt, catch_up: 'none' }), as(pro));
    const due = Date.parse(outage.body.next_run_at);
    // The latest of them (due - 10 s) must be late too, not a due time still on time.
    await eventually(async () => Date.now() > due - 10 * SECOND + 1_500);
    await db.query(`UPDATE jobs SET next_run_at = $2 WHERE id = $1`, [outage.body.job_id, new Date(due - 30 * SECOND)]);
    const missed = await eventually(async () => {
      const rows = await runsOf(outage.body.job_id);
      return rows.length >= 3 ? rows : null;
    });
    expect(missed.map((r) => [new Date(r.scheduled_for).getTime(), r.status])).toEqual([
      [due - 30 * SECOND, 'missed'],
      [due - 20 * SECOND, 'missed'],
      [due - 10 * SECOND, 'missed'],
    ]);
    expect(missed[0].error_message).toContain('catch_up: none');
    expect(Date.parse((await server.http.get(`/api/jobs/${outage.body.job_id}`, as(pro))).body.next_run_at)).toBe(due);
    expect(target.requests('/outage-none')).toEqual([]);
    await server.http.delete(`/api/jobs/${outage.body.job_id}`, as(pro));

    // all_within: a resume fires the due times of the window that passed while the job was paused, oldest first.
    const within = await server.http.post('/api/jobs', job('within-after-pause', '/within', { every_seconds: 1, catch_up: 'all_within', catch_up_window_seconds: 3 }), as(pro));
    expect(within.status).toBe(200);
    await target.waitFor(() => target.requests('/within').length >= 1, 10_000);
    await server.http.post(`/api/jobs/${within.body.job_id}/pause`, undefined, as(pro));
    const pausedWithin = Date.now();
    await eventually(async () => Date.now() > pausedWithin + 6_000);
    await server.http.post(`/api/jobs/${within.body.job_id}/resume`, undefined, as(pro));
    const resumedWithin = Date.now();
    const recovered = await eventually(async () => {
      const rows = (await runsOf(within.body.job_id)).filter((r) => r.trigger === 'recovery' && r.status === 'success');
      return rows.length >= 1 ? rows : null;
    });
    await server.http.post(`/api/jobs/${within.body.job_id}/pause`, undefined, as(pro));
    const whilePaused = (await runsOf(within.body.job_id)).map((r) => new Date(r.scheduled_for).getTime()).filter((at) => at > pausedWithin + SECOND && at < resumedWithin);
    // Each due time of the pause within the window ran (once: the unique key), none older did.
    expect(whilePaused.length).toBeGreaterThanOrEqual(recovered.length);
    for (const at of whilePaused) expect(at).toBeGreaterThanOrEqual(resumedWithin - 3 * SECOND - 200);
    expect(new Set(whilePaused).size).toBe(whilePaused.length);
  });

  it('ends_at stops the schedule: no run after it, and no next run', async () => {
    const endsAt = new Date(Math.floor((Date.now() + 2_500) / SECOND) * SECOND + 500);
    const created = await server.http.post('/api/jobs', job('ends-soon', '/ends', { every_seconds: 1, ends_at: endsAt.toISOString() }), as(pro));
    expect(created.status).toBe(200);
    const ended = await eventually(async () => {
      const res = await server.http.get(`/api/jobs/${created.body.job_id}`, as(pro));
      return res.body.next_run_at === null && res.body.last_run_at ? res.body : null;
    }, 15_000);
    expect(ended.ends_at).toBe(endsAt.toISOString());
    await schedulerPassed(db, `${target.url}/sentinel`, 1_500);
    const runs = await runsOf(created.body.job_id);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    for (const run of runs) expect(new Date(run.scheduled_for).getTime()).toBeLessThanOrEqual(endsAt.getTime());
    expect(target.requests('/ends').every((r) => r.arrivedAt < endsAt.getTime() + WITHIN_ITS_SECOND_MS)).toBe(true);
  });

  it('refuses bad schedules with a 422 naming the field, on /api and /prog', async () => {
    const free = await signUpAndLogin(server);
    const soon = new Date(Date.now() + 60_000).toISOString();
    const cases: Array<[Record<string, unknown>, string, string | RegExp, SignedInAccount?]> = [
      [{}, 'cron_expression', 'Cron expression is required'],
      [{ cron_expression: '* * * * *', every_seconds: 60 }, 'every_seconds', 'Give one schedule: cron_expression, every_seconds or run_at'],
      [{ every_seconds: 60, run_at: soon }, 'run_at', 'Give one schedule: cron_expression, every_seconds or run_at'],
      [{ every_seconds: 0 }, 'every_seconds', /^every_seconds must be a whole number of seconds from 1/],
      [{ every_seconds: 30 }, 'every_seconds', 'The free plan runs a job at most once every 60 seconds; every_seconds is 30', free],
      [{ run_at: 'tomorrow' }, 'run_at', /^run_at must be a date and time with its offset/],
      [{ run_at: '2020-01-01T00:00:00Z' }, 'run_at', 'run_at must be in the future'],
      [{ run_at: soon, starts_at: soon }, 'starts_at', /a run_at job runs once/],
      [{ every_seconds: 60, starts_at: soon, ends_at: soon }, 'ends_at', 'ends_at must be after starts_at'],
      [{ every_seconds: 60, ends_at: '2020-01-01T00:00:00Z' }, 'ends_at', 'ends_at must be in the future'],
      [{ every_seconds: 60, jitter_seconds: 3_601 }, 'jitter_seconds', 'jitter_seconds must be a whole number from 0 to 3600'],
      [{ every_seconds: 60, overlap: 'queue' }, 'overlap', 'overlap must be one of: allow, skip'],
      [{ every_seconds: 60, catch_up: 'all' }, 'catch_up', 'catch_up must be one of: latest, none, all_within'],
      [{ every_seconds: 60, catch_up: 'all_within' }, 'catch_up_window_seconds', /with catch_up all_within$/],
      [{ every_seconds: 60, catch_up_window_seconds: 60 }, 'catch_up_window_seconds', /only for catch_up all_within/],
    ];
    for (const [schedule, field, message, account] of cases) {
      const res = await server.http.post('/api/jobs', { name: 'bad-schedule', url: `${target.url}/bad`, ...schedule }, as(account ?? pro));
      expect([JSON.stringify(schedule), res.status]).toEqual([JSON.stringify(schedule), 422]);
      expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', field], msg: typeof message === 'string' ? message : expect.stringMatching(message) })]));
    }
    const prog = await server.http.post('/prog/jobs', { name: 'bad-schedule', url: `${target.url}/bad`, every_seconds: 60, run_at: soon }, { headers: { 'X-API-Key': apiKey, 'X-User-ID': pro.userId } });
    expect(prog.status).toBe(422);
    expect(prog.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'run_at'], msg: 'Give one schedule: cron_expression, every_seconds or run_at' })]);
    const previewTooFast = await server.http.post('/api/jobs/schedule-preview', { every_seconds: 5 }, as(free));
    expect(previewTooFast.status).toBe(422);
    expect(previewTooFast.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'every_seconds'] })]);
  });

  it('the preview answers the next runs and the executions in 30 days, on /api and /prog; a GET → PUT of each form is a no-op', async () => {
    const hourly = await server.http.post('/api/jobs/schedule-preview', { cron_expression: '0 * * * *', count: 2 }, as(pro));
    expect(hourly.status).toBe(200);
    expect(hourly.body).toMatchObject({ executions_per_30_days: 720, jitter_offset_seconds: 0, plan: 'pro', execution_quota: 10_000 });
    expect(Date.parse(hourly.body.next_runs[1]) - Date.parse(hourly.body.next_runs[0])).toBe(3_600 * SECOND);
    const auth = { headers: { 'X-API-Key': apiKey, 'X-User-ID': pro.userId } };
    const interval = await server.http.post('/prog/jobs/schedule-preview', { name: 'warm', every_seconds: 30 }, auth);
    expect(interval.status).toBe(200);
    expect(interval.body.executions_per_30_days).toBe(86_400);
    expect(interval.body.next_runs).toHaveLength(5);
    const oneOff = await server.http.post('/api/jobs/schedule-preview', { run_at: new Date(Date.now() + 3_600_000).toISOString() }, as(pro));
    expect(oneOff.body).toMatchObject({ executions_per_30_days: 1, next_runs: [expect.any(String)] });
    const windowed = await server.http.post('/api/jobs/schedule-preview', { every_seconds: 60, ends_at: new Date(Date.now() + 10 * 60_000).toISOString(), count: 50 }, as(pro));
    expect(windowed.body.next_runs.length).toBeGreaterThanOrEqual(9);
    expect(windowed.body.next_runs.length).toBeLessThanOrEqual(10);
    expect(windowed.body.executions_per_30_days).toBe(windowed.body.next_runs.length);

    for (const schedule of [
      { every_seconds: 3_600, starts_at: new Date(Date.now() + 86_400_000).toISOString(), jitter_seconds: 30, overlap: 'skip', catch_up: 'all_within', catch_up_window_seconds: 600 },
      { run_at: new Date(Date.now() + 86_400_000).toISOString() },
      { cron_expression: '0 9 * * 1-5', ends_at: new Date(Date.now() + 30 * 86_400_000).toISOString(), catch_up: 'none' },
    ]) {
      const created = await server.http.post('/prog/jobs', { name: `round-trip-${Object.keys(schedule)[0]}`, url: `${target.url}/later`, ...schedule }, auth);
      expect(created.status).toBe(200);
      const { signing_secret: _secret, ...answered } = created.body;
      const put = await server.http.put(`/prog/jobs/${created.body.job_id}`, answered, auth);
      expect(put.status).toBe(200);
      expect({ ...put.body, updated_at: null }).toEqual({ ...answered, updated_at: null });
      await server.http.delete(`/prog/jobs/${created.body.job_id}`, auth);
    }
  });
});
