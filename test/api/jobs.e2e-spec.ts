import { nextRun } from '@cronbeam/shared/cron/cron-schedule';
import { type JobChange, JobEvents } from '../../backend/src/modules/jobs/job-events';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, plantRuns, setPlan, shuffledMinutes, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

describe('dashboard job API (/api/jobs)', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;

  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const create = (who: SignedInAccount, overrides = {}) => server.http.post('/api/jobs', jobDefinition(overrides), as(who));

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
    await setPlan(server, bob.userId, 'basic');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('creates a pending job whose next run is the next cron instant after now (UTC)', async () => {
    const before = new Date();
    const res = await create(alice, { name: 'every-five', cron_expression: '*/5 * * * *', method: 'post', headers: { ' X-Token ': ' abc ', Empty: '' }, body: '{"a":1}' });
    const after = new Date();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'every-five', status: 'pending', method: 'POST', headers: { 'X-Token': 'abc' }, body: '{"a":1}', notify_on_failure: false, last_run_at: null });
    expect(res.body.job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect([nextRun('*/5 * * * *', before)?.toISOString(), nextRun('*/5 * * * *', after)?.toISOString()]).toContain(res.body.next_run_at);
    expect(Date.parse(res.body.next_run_at)).toBeGreaterThan(before.getTime());
  });

  it('lists only the caller’s jobs, oldest first, and reads one by id', async () => {
    const first = await create(alice, { name: 'list-a' });
    const second = await create(alice, { name: 'list-b' });
    await create(bob, { name: 'list-bob' });
    const list = await server.http.get('/api/jobs', as(alice));
    expect(list.status).toBe(200);
    const names = list.body.map((j: { name: string }) => j.name);
    expect(names.indexOf('list-a')).toBeLessThan(names.indexOf('list-b'));
    expect(names).not.toContain('list-bob');
    const one = await server.http.get(`/api/jobs/${second.body.job_id}`, as(alice));
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.body.find((j: { job_id: string }) => j.job_id === second.body.job_id));
    expect(first.body.job_id).not.toBe(second.body.job_id);
  });

  it('replaces the definition on PUT, recomputing next_run_at, and needs the full definition', async () => {
    const job = (await create(alice, { name: 'to-edit', notify_on_failure: true, headers: { A: 'b' } })).body;
    const put = await server.http.put(`/api/jobs/${job.job_id}`, { name: 'edited', url: 'http://example.org/x', cron_expression: '0 0 1 1 *' }, as(alice));
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ job_id: job.job_id, name: 'edited', url: 'http://example.org/x', method: 'GET', headers: {}, body: '', notify_on_failure: false, status: 'pending' });
    expect(put.body.next_run_at).toBe(nextRun('0 0 1 1 *')?.toISOString());
    const partial = await server.http.put(`/api/jobs/${job.job_id}`, { name: 'only-name' }, as(alice));
    expect(partial.status).toBe(422);
    expect(partial.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'url'], msg: 'URL is required' }),
        expect.objectContaining({ loc: ['body', 'cron_expression'], msg: 'Cron expression is required' }),
      ]),
    );
  });

  it('pauses (paused, no next run) and resumes (scheduled, next run from now); editing a paused job keeps it paused', async () => {
    const job = (await create(alice, { name: 'pausable', cron_expression: '0 * * * *' })).body;
    const paused = await server.http.post(`/api/jobs/${job.job_id}/pause`, undefined, as(alice));
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: 'paused', next_run_at: null });

    const edited = await server.http.put(`/api/jobs/${job.job_id}`, jobDefinition({ name: 'pausable', cron_expression: '30 * * * *' }), as(alice));
    expect(edited.body).toMatchObject({ status: 'paused', next_run_at: null, cron_expression: '30 * * * *' });

    const before = new Date();
    const resumed = await server.http.post(`/api/jobs/${job.job_id}/resume`, undefined, as(alice));
    expect(resumed.status).toBe(200);
    expect(resumed.body.status).toBe('scheduled');
    expect([nextRun('30 * * * *', before)?.toISOString(), nextRun('30 * * * *')?.toISOString()]).toContain(resumed.body.next_run_at);

    const stored = await sql(server, 'SELECT status, next_run_at FROM jobs WHERE id = $1', [job.job_id]);
    expect(stored[0].status).toBe('scheduled');
    expect((stored[0].next_run_at as Date).toISOString()).toBe(resumed.body.next_run_at);
  });

  it('deletes a job together with its logs', async () => {
    const job = (await create(alice, { name: 'doomed' })).body;
    await plantRuns(server, job.job_id, alice.userId, [{ executedAt: '2026-01-01T00:00:00Z' }, { executedAt: '2026-01-01T00:05:00Z' }]);
    const del = await server.http.delete(`/api/jobs/${job.job_id}`, as(alice));
    expect(del.status).toBe(200);
    expect((await server.http.get(`/api/jobs/${job.job_id}`, as(alice))).status).toBe(404);
    expect(await sql(server, 'SELECT id FROM job_runs WHERE job_id = $1', [job.job_id])).toHaveLength(0);
    expect((await server.http.delete(`/api/jobs/${job.job_id}`, as(alice))).status).toBe(404);
  });

  it('announces every committed change on JobEvents (the scheduler re-arms its timer from them)', async () => {
    const seen: JobChange[] = [];
    const subscription = server.app.get(JobEvents).changes$.subscribe((change) => seen.push(change));
    try {
      const job = (await create(alice, { name: 'announced', cron_expression: '0 * * * *' })).body;
      await server.http.put(`/api/jobs/${job.job_id}`, jobDefinition({ name: 'announced', cron_expression: '15 * * * *' }), as(alice));
      await server.http.post(`/api/jobs/${job.job_id}/pause`, undefined, as(alice));
      const resumed = (await server.http.post(`/api/jobs/${job.job_id}/resume`, undefined, as(alice))).body;
      await server.http.delete(`/api/jobs/${job.job_id}`, as(alice));
      await create(alice, { name: 'announced!' }); // refused: no event
      expect(seen.map((c) => [c.kind, c.nextRunAt?.toISOString() ?? null])).toEqual([
        ['created', job.next_run_at],
        ['updated', nextRun('15 * * * *')?.toISOString()],
        ['paused', null],
        ['resumed', resumed.next_run_at],
        ['deleted', null],
      ]);
      expect(seen.every((c) => c.jobId === job.job_id && c.accountId === alice.userId)).toBe(true);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1%27%20OR%201=1']) {
      const res = await server.http.get(`/api/jobs/${id}`, as(alice));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Job not found' });
    }
  });

  it('isolates users: B gets 404 on every operation on A’s job and A’s job is untouched', async () => {
    // The creation alone answers the signing secret; GET never does.
    const { signing_secret: _secret, ...job } = (await create(alice, { name: 'private-job' })).body;
    const base = `/api/jobs/${job.job_id}`;
    const attempts = await Promise.all([
      server.http.get(base, as(bob)),
      server.http.put(base, jobDefinition({ name: 'hijacked' }), as(bob)),
      server.http.post(`${base}/pause`, undefined, as(bob)),
      server.http.post(`${base}/resume`, undefined, as(bob)),
      server.http.post(`${base}/signing-secret`, {}, as(bob)),
      server.http.get(`${base}/logs`, as(bob)),
      server.http.delete(base, as(bob)),
    ]);
    for (const res of attempts) {
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('private-job');
    }
    const still = await server.http.get(base, as(alice));
    expect(still.body).toEqual(job);
  });

  it('requires a bearer token', async () => {
    expect((await server.http.get('/api/jobs')).status).toBe(401);
    expect((await server.http.post('/api/jobs', jobDefinition())).status).toBe(401);
    expect((await server.http.get('/api/jobs', { token: 'garbage' })).status).toBe(401);
  });

  it('keeps job names unique per user, ignoring case; other users may reuse a name', async () => {
    expect((await create(alice, { name: 'Backup' })).status).toBe(200);
    const dup = await create(alice, { name: 'backup' });
    expect(dup.status).toBe(422);
    expect(dup.body.detail).toEqual([{ loc: ['body', 'name'], msg: 'A job with this name already exists', type: 'value_error' }]);
    expect((await create(bob, { name: 'backup' })).status).toBe(200);
    const other = (await create(alice, { name: 'other-name' })).body;
    const rename = await server.http.put(`/api/jobs/${other.job_id}`, jobDefinition({ name: 'BACKUP' }), as(alice));
    expect(rename.status).toBe(422);
    expect(rename.body.detail[0].msg).toBe('A job with this name already exists');
  });

  describe('logs', () => {
    let jobId: string;

    beforeAll(async () => {
      jobId = (await create(alice, { name: 'logged' })).body.job_id;
      await plantRuns(server, jobId, alice.userId, shuffledMinutes('2026-03-01T00:00:00Z', 60).map((executedAt) => ({ executedAt })));
      // Unfinished runs are the scheduler's queue, not the log.
      await plantRuns(server, jobId, alice.userId, [
        { executedAt: '2026-04-01T00:00:00Z', state: 'queued' },
        { executedAt: '2026-04-01T00:01:00Z', state: 'running' },
      ]);
    });

    it('answers {logs} newest first, 50 by default, finished runs only', async () => {
      const res = await server.http.get(`/api/jobs/${jobId}/logs`, as(alice));
      expect(res.status).toBe(200);
      const times = res.body.logs.map((l: { executed_at: string }) => l.executed_at);
      expect(times).toHaveLength(50);
      expect(times[0]).toBe('2026-03-01T00:59:00.000Z');
      expect(times[49]).toBe('2026-03-01T00:10:00.000Z');
      expect([...times].sort().reverse()).toEqual(times);
      expect(res.body.logs[0]).toEqual({
        run_id: expect.any(String),
        executed_at: '2026-03-01T00:59:00.000Z',
        scheduled_for: '2026-03-01T00:59:00.000Z',
        attempt: 1,
        trigger: 'schedule',
        status: expect.stringMatching(/^(success|failed)$/),
        response_code: 200,
        duration_ms: 10,
        error_message: null,
        response_body: null,
        possible_duplicate: false,
        alert_note: null,
      });
    });

    it('honours ?limit= from 1 to 1000 and refuses anything else', async () => {
      expect((await server.http.get(`/api/jobs/${jobId}/logs?limit=10`, as(alice))).body.logs).toHaveLength(10);
      expect((await server.http.get(`/api/jobs/${jobId}/logs?limit=1000`, as(alice))).body.logs).toHaveLength(60);
      for (const bad of ['0', '1001', 'abc', '2.5']) {
        const res = await server.http.get(`/api/jobs/${jobId}/logs?limit=${bad}`, as(alice));
        expect(res.status).toBe(422);
        expect(res.body.detail[0]).toMatchObject({ loc: ['query', 'limit'], msg: 'limit must be a whole number from 1 to 1000' });
      }
    });

    it('shows nothing of another user’s runs', async () => {
      const bobJob = (await create(bob, { name: 'bob-logged' })).body.job_id;
      await plantRuns(server, bobJob, bob.userId, [{ executedAt: '2026-05-01T00:00:00Z' }]);
      expect((await server.http.get(`/api/jobs/${bobJob}/logs`, as(bob))).body.logs).toHaveLength(1);
      expect((await server.http.get(`/api/jobs/${bobJob}/logs`, as(alice))).status).toBe(404);
      const aliceLogs = (await server.http.get(`/api/jobs/${jobId}/logs?limit=1000`, as(alice))).body.logs;
      expect(aliceLogs.map((l: { executed_at: string }) => l.executed_at)).not.toContain('2026-05-01T00:00:00.000Z');
    });
  });
});

describe('job limits per plan', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ['free', 2],
    ['basic', 10],
    ['pro', 50],
  ] as const)('%s allows %i jobs, then answers 403 Job limit exceeded', async (plan, maxJobs) => {
    const user = await signUpAndLogin(server);
    await setPlan(server, user.userId, plan);
    for (let i = 0; i < maxJobs; i += 1) {
      const res = await server.http.post('/api/jobs', jobDefinition(), { token: user.accessToken });
      expect(res.status).toBe(200);
    }
    const over = await server.http.post('/api/jobs', jobDefinition(), { token: user.accessToken });
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ detail: { error: 'Job limit exceeded', plan, job_count: maxJobs, max_jobs: maxJobs } });
    // Deleting one frees a slot.
    const [first] = (await server.http.get('/api/jobs', { token: user.accessToken })).body;
    await server.http.delete(`/api/jobs/${first.job_id}`, { token: user.accessToken });
    expect((await server.http.post('/api/jobs', jobDefinition(), { token: user.accessToken })).status).toBe(200);
  });

  it('does not let concurrent creates overshoot the limit', async () => {
    const user = await signUpAndLogin(server);
    const results = await Promise.all(Array.from({ length: 6 }, () => server.http.post('/api/jobs', jobDefinition(), { token: user.accessToken })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 403)).toHaveLength(4);
  });
});
