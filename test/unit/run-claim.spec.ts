import { SchedulerDatabase } from './support/scheduler-database';

/**
 * The claim step on a real database, without an application: due jobs become
 * runs leased to the claiming instance exactly once, move to their next due
 * time, and count against the quota; runs over the quota, missed during an
 * outage, queued as retries or orphaned by a dead instance are handled as the
 * scheduler promises.
 */
describe('claim (database level)', () => {
  let sdb: SchedulerDatabase;

  beforeAll(async () => {
    sdb = await SchedulerDatabase.start();
  });
  afterAll(async () => {
    await sdb?.close();
  });
  beforeEach(() => sdb.clear());

  const at = (iso: string) => new Date(iso);
  const usage = async (userId: string) =>
    (await sdb.query<{ executions: number }>(`SELECT executions FROM usage_periods WHERE account_id = $1`, [userId])).map((r) => r.executions);

  it('leases a due job once, with its request, moves it to its next due time and counts the execution', async () => {
    const { claimer, owner } = sdb.instance();
    const userId = await sdb.createUser();
    const due = at('2026-03-10T12:05:00Z');
    const jobId = await sdb.createJob(userId, { cron: '*/5 * * * *', nextRunAt: due });
    const now = due.getTime() - 1_000;

    const first = await claimer.claimDueJobs(new Date(due.getTime() + 3_000), now);
    expect(first.runs).toHaveLength(1);
    expect(first.runs[0]).toMatchObject({ jobId, accountId: userId, trigger: 'schedule', attempt: 1, scheduledFor: due, dueAt: due, url: 'https://example.com/hook', method: 'POST', headers: { 'x-test': '1' }, body: 'ping' });
    const [run] = await sdb.query(`SELECT state, lease_owner, lease_expires_at FROM job_runs WHERE id = $1`, [first.runs[0].runId]);
    expect(run).toMatchObject({ state: 'running', lease_owner: owner.id });
    expect(new Date(run.lease_expires_at).getTime()).toBeGreaterThan(due.getTime());
    const [job] = await sdb.query(`SELECT next_run_at, status FROM jobs WHERE id = $1`, [jobId]);
    expect(new Date(job.next_run_at)).toEqual(at('2026-03-10T12:10:00Z'));
    expect(job.status).toBe('scheduled');
    expect(await usage(userId)).toEqual([1]);

    // Claimed again, by this or another instance: nothing is due any more.
    expect((await claimer.claimDueJobs(new Date(due.getTime() + 3_000), now)).runs).toHaveLength(0);
    expect((await sdb.instance().claimer.claimDueJobs(new Date(due.getTime() + 3_000), now)).runs).toHaveLength(0);
    expect(await sdb.query(`SELECT id FROM job_runs WHERE job_id = $1`, [jobId])).toHaveLength(1);
  });

  it('never inserts a second run for a due time already fired, even if the job is due at it again', async () => {
    const { claimer } = sdb.instance();
    const userId = await sdb.createUser();
    const due = at('2026-03-11T08:00:00Z');
    const jobId = await sdb.createJob(userId, { cron: '0 8 * * *', nextRunAt: due });
    expect((await claimer.claimDueJobs(due, due.getTime())).runs).toHaveLength(1);
    await sdb.query(`UPDATE jobs SET next_run_at = $2 WHERE id = $1`, [jobId, due]); // as if two claims had raced
    const again = await sdb.instance().claimer.claimDueJobs(due, due.getTime());
    expect(again.runs).toHaveLength(0);
    expect(await sdb.query(`SELECT id FROM job_runs WHERE job_id = $1 AND scheduled_for = $2`, [jobId, due])).toHaveLength(1);
  });

  it('at the quota records the run as skipped, stops the job and spends nothing', async () => {
    const { claimer } = sdb.instance();
    const userId = await sdb.createUser('free');
    const due = at('2026-04-02T10:00:00Z');
    await sdb.query(`INSERT INTO usage_periods (account_id, period_start, executions) VALUES ($1, '2026-04-01', 100)`, [userId]);
    const jobId = await sdb.createJob(userId, { cron: '0 * * * *', nextRunAt: due });

    const claimed = await claimer.claimDueJobs(due, due.getTime());
    expect(claimed.runs).toHaveLength(0);
    const runs = await sdb.query(`SELECT state, status, skip_reason, error_message FROM job_runs WHERE job_id = $1`, [jobId]);
    expect(runs).toEqual([
      { state: 'done', status: 'skipped', skip_reason: 'quota', error_message: 'Skipped: the monthly execution quota of 100 for the free plan is used up' },
    ]);
    const [job] = await sdb.query(`SELECT status, next_run_at FROM jobs WHERE id = $1`, [jobId]);
    expect(job).toEqual({ status: 'quota_reached', next_run_at: null });
    expect(await usage(userId)).toEqual([100]);
  });

  it('after an outage fires the latest due time as a recovery run and records the earlier ones as missed', async () => {
    const { claimer } = sdb.instance();
    const userId = await sdb.createUser('pro');
    const jobId = await sdb.createJob(userId, { cron: '*/10 * * * *', nextRunAt: at('2026-05-01T00:00:00Z') });
    const now = at('2026-05-01T00:35:00Z').getTime();

    const claimed = await claimer.claimDueJobs(new Date(now), now);
    expect(claimed.runs.map((r) => [r.trigger, r.scheduledFor.toISOString()])).toEqual([['recovery', '2026-05-01T00:30:00.000Z']]);
    const missed = await sdb.query(`SELECT scheduled_for FROM job_runs WHERE job_id = $1 AND status = 'missed' ORDER BY scheduled_for`, [jobId]);
    expect(missed.map((r) => new Date(r.scheduled_for).toISOString())).toEqual(['2026-05-01T00:00:00.000Z', '2026-05-01T00:10:00.000Z', '2026-05-01T00:20:00.000Z']);
    const [job] = await sdb.query(`SELECT next_run_at FROM jobs WHERE id = $1`, [jobId]);
    expect(new Date(job.next_run_at)).toEqual(at('2026-05-01T00:40:00Z'));
    expect(await usage(userId)).toEqual([1]); // missed due times never ran: nothing counted
  });

  it('leases queued retries when they fall due and takes over runs whose lease expired', async () => {
    const { claimer, owner } = sdb.instance();
    const userId = await sdb.createUser('pro');
    const jobId = await sdb.createJob(userId, { nextRunAt: at('2030-01-01T00:00:00Z') });
    const [retry] = await sdb.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, attempt, due_at, state)
       VALUES ($1, $2, 'retry', '2026-06-01T00:00:00Z', 2, '2026-06-01T00:00:10Z', 'queued') RETURNING id`,
      [jobId, userId],
    );
    const [orphan] = await sdb.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, lease_owner, lease_expires_at)
       VALUES ($1, $2, 'schedule', '2026-06-01T00:05:00Z', '2026-06-01T00:05:00Z', 'running', 'dead-instance', '2026-06-01T00:05:40Z') RETURNING id`,
      [jobId, userId],
    );

    const early = await claimer.claimQueuedRuns(at('2026-06-01T00:00:05Z'), at('2026-06-01T00:00:05Z').getTime());
    expect(early.runs).toHaveLength(0);
    const now = at('2026-06-01T00:06:00Z').getTime();
    const claimed = await claimer.claimQueuedRuns(new Date(now), now);
    expect(claimed.runs.map((r) => r.runId).sort()).toEqual([retry.id, orphan.id].sort());
    expect(claimed.runs.find((r) => r.runId === retry.id)).toMatchObject({ trigger: 'retry', attempt: 2, url: 'https://example.com/hook', body: 'ping' });
    const owners = await sdb.query(`SELECT DISTINCT lease_owner, state FROM job_runs WHERE id = ANY($1::uuid[])`, [[retry.id, orphan.id]]);
    expect(owners).toEqual([{ lease_owner: owner.id, state: 'running' }]);
  });

  it('undoes a claim withdrawn before its instant and gives its execution back to the quota', async () => {
    const { claimer } = sdb.instance();
    const userId = await sdb.createUser();
    const due = at('2026-07-01T09:00:00Z');
    const jobId = await sdb.createJob(userId, { cron: '0 9 * * *', nextRunAt: due });
    const claimed = await claimer.claimDueJobs(due, due.getTime() - 2_000);
    expect(await usage(userId)).toEqual([1]);

    await claimer.unclaim(claimed.runs.map((r) => r.runId));
    expect(await sdb.query(`SELECT id FROM job_runs WHERE job_id = $1`, [jobId])).toHaveLength(0);
    expect(await usage(userId)).toEqual([0]);
  });

  it('answers the earliest instant anything falls due', async () => {
    const { claimer } = sdb.instance();
    const userId = await sdb.createUser();
    await sdb.createJob(userId, { nextRunAt: at('2031-01-01T00:00:00Z') });
    await sdb.createJob(userId, { nextRunAt: at('2030-01-01T00:00:00Z'), status: 'paused' });
    expect(await claimer.earliestDue()).toEqual(at('2031-01-01T00:00:00Z'));
  });
});
