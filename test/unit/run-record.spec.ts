import type { ExecutionResult } from '../../backend/src/modules/executor/http-executor.service';
import type { ExecutionOutcome } from '../../backend/src/modules/runs/execution-events';
import { until } from '../support/until';
import { SchedulerDatabase, type SchedulerInstanceParts } from './support/scheduler-database';

/** The embedded database runs one transaction at a time, so no change can commit while a result waits for the job's row. */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * The record step on a real database, without an application: a result is
 * stored on its run, a retryable failure queues its retry, the job's status
 * and last run follow, and only then is the outcome published; a result for
 * a lease another instance took over is dropped.
 */
describe('record (database level)', () => {
  let sdb: SchedulerDatabase;
  let scheduler: SchedulerInstanceParts;
  let published: ExecutionOutcome[];

  beforeAll(async () => {
    sdb = await SchedulerDatabase.start({ RETRY_BACKOFF_BASE_MS: '10000' });
  });
  afterAll(async () => {
    await sdb?.close();
  });
  beforeEach(async () => {
    await sdb.clear();
    scheduler = sdb.instance();
    published = [];
    scheduler.events.outcomes$.subscribe((o) => published.push(o));
  });

  const result = (fields: Partial<ExecutionResult>): ExecutionResult => ({
    success: true,
    startedAt: new Date(),
    responseCode: 200,
    durationMs: 12,
    responseBody: '{"ok":true}',
    errorMessage: null,
    retryable: false,
    ...fields,
  });

  /** A job due now, claimed by this instance: its one leased run. */
  async function claimOne(plan = 'pro') {
    const userId = await sdb.createUser(plan);
    const due = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const jobId = await sdb.createJob(userId, { cron: '* * * * *', nextRunAt: due });
    const { runs } = await scheduler.claimer.claimDueJobs(due, due.getTime());
    expect(runs).toHaveLength(1);
    return { run: runs[0], jobId, userId };
  }

  it('stores a success on the run, sets the job status and last run, then publishes the outcome', async () => {
    const { run, jobId } = await claimOne();
    const startedAt = new Date(run.dueAt.getTime() + 3);
    await scheduler.runs.record(run, result({ startedAt, responseCode: 204, durationMs: 42, responseBody: '' }));

    const [stored] = await sdb.query(`SELECT * FROM job_runs WHERE id = $1`, [run.runId]);
    expect(stored).toMatchObject({ state: 'done', status: 'success', response_code: 204, duration_ms: 42, response_body: '', error_message: null, lease_owner: null, lease_expires_at: null });
    expect(new Date(stored.executed_at)).toEqual(startedAt);
    expect(stored.finished_at).not.toBeNull();
    const [job] = await sdb.query(`SELECT status, last_run_at FROM jobs WHERE id = $1`, [jobId]);
    expect(job.status).toBe('success');
    expect(new Date(job.last_run_at)).toEqual(startedAt);
    expect(published).toEqual([expect.objectContaining({ runId: run.runId, jobId, status: 'success', responseCode: 204, willRetry: false })]);
  });

  it('queues the retry of a retryable failure with its backoff and leaves the job status as it was', async () => {
    const { run, jobId } = await claimOne();
    const before = Date.now();
    await scheduler.runs.record(run, result({ success: false, responseCode: 503, responseBody: null, errorMessage: 'HTTP 503 Service Unavailable', retryable: true }));

    const runs = await sdb.query(`SELECT trigger, attempt, state, status, scheduled_for, due_at FROM job_runs WHERE job_id = $1 ORDER BY attempt`, [jobId]);
    expect(runs.map((r) => [r.trigger, r.attempt, r.state, r.status])).toEqual([
      ['schedule', 1, 'done', 'failed'],
      ['retry', 2, 'queued', null],
    ]);
    expect(new Date(runs[1].scheduled_for)).toEqual(run.scheduledFor);
    const retryDue = new Date(runs[1].due_at).getTime();
    expect(retryDue).toBeGreaterThanOrEqual(before + 10_000);
    expect(retryDue).toBeLessThanOrEqual(Date.now() + 10_000);
    const [job] = await sdb.query(`SELECT status FROM jobs WHERE id = $1`, [jobId]);
    expect(job.status).toBe('scheduled');
    expect(published).toEqual([expect.objectContaining({ runId: run.runId, status: 'failed', willRetry: true })]);
  });

  it('does not retry a failure that is not retryable, nor a manual run, and the job becomes failed', async () => {
    const { run, jobId } = await claimOne();
    await scheduler.runs.record(run, result({ success: false, responseCode: 404, errorMessage: 'HTTP 404 Not Found' }));
    expect(await sdb.query(`SELECT id FROM job_runs WHERE job_id = $1 AND state = 'queued'`, [jobId])).toHaveLength(0);
    const [job] = await sdb.query(`SELECT status FROM jobs WHERE id = $1`, [jobId]);
    expect(job.status).toBe('failed');

    const manual = { ...run, runId: (await sdb.query(`INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, lease_owner) VALUES ($1, $2, 'manual', now(), now(), 'running', $3) RETURNING id`, [jobId, run.accountId, scheduler.owner.id]))[0].id, trigger: 'manual' as const };
    await scheduler.runs.record(manual, result({ success: false, responseCode: 502, retryable: true }), true);
    expect(await sdb.query(`SELECT id FROM job_runs WHERE job_id = $1 AND state = 'queued'`, [jobId])).toHaveLength(0);
    expect(published.map((o) => [o.trigger, o.willRetry])).toEqual([
      ['schedule', false],
      ['manual', false],
    ]);
  });

  it('keeps a paused job paused when its last result arrives', async () => {
    const { run, jobId } = await claimOne();
    await sdb.query(`UPDATE jobs SET status = 'paused', next_run_at = NULL WHERE id = $1`, [jobId]);
    await scheduler.runs.record(run, result({}));
    const [job] = await sdb.query(`SELECT status, last_run_at FROM jobs WHERE id = $1`, [jobId]);
    expect(job.status).toBe('paused');
    expect(job.last_run_at).not.toBeNull();
  });

  /**
   * Holds the job's row in a transaction of its own that applies `change`, records a success for its
   * run, commits the change once the result's statement waits for the row, and answers the job after both.
   */
  async function recordWhileHeld(change: string) {
    const { run, jobId } = await claimOne();
    const holding = sdb.db.createQueryRunner();
    await holding.connect();
    try {
      await holding.startTransaction();
      await holding.query(`UPDATE jobs SET ${change} WHERE id = $1`, [jobId]);
      const recorded = scheduler.runs.record(run, result({}));
      // The result's statement has taken its snapshot and waits for the row held here.
      await until(
        () => sdb.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`),
        ([row]) => row.n > 0,
      );
      await holding.commitTransaction();
      await recorded;
    } finally {
      await holding.release();
    }
    const [stored] = await sdb.query(`SELECT status FROM job_runs WHERE id = $1`, [run.runId]);
    expect(stored.status).toBe('success');
    const [job] = await sdb.query(`SELECT status, next_run_at, last_run_at FROM jobs WHERE id = $1`, [jobId]);
    return { job, run };
  }

  (onPostgres ? it : it.skip)('keeps a pause that commits while the result waits for the job row', async () => {
    const { job } = await recordWhileHeld(`status = 'paused', next_run_at = NULL`);
    expect(job).toMatchObject({ status: 'paused', next_run_at: null });
    expect(job.last_run_at).not.toBeNull();
  });

  (onPostgres ? it : it.skip)('keeps the next due time a claim moved while the result waited for the job row, so that due time is not claimed twice', async () => {
    const { job, run } = await recordWhileHeld(`next_run_at = next_run_at + interval '1 minute'`);
    expect(job.status).toBe('success');
    // The claim moved it from the minute after the run's to the one after that.
    expect(new Date(job.next_run_at)).toEqual(new Date(run.scheduledFor.getTime() + 120_000));
  });

  (onPostgres ? it : it.skip)('writes the results that arrive while a batch is being written as one batch once it is stored, not as a queue of small ones', async () => {
    const first = await claimOne();
    const second = await claimOne();
    const third = await claimOne();
    const holding = sdb.db.createQueryRunner();
    await holding.connect();
    let stored: Promise<void[]>;
    try {
      await holding.startTransaction();
      await holding.query(`UPDATE jobs SET name = name WHERE id = $1`, [first.jobId]);
      const firstStored = scheduler.runs.record(first.run, result({}));
      await until(
        () => sdb.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`),
        ([row]) => row.n > 0,
      );
      // Each arrives after the recorder's batching delay (20 ms): on its own, each would be a batch.
      const secondStored = scheduler.runs.record(second.run, result({}));
      await new Promise((resolve) => setTimeout(resolve, 60));
      const thirdStored = scheduler.runs.record(third.run, result({}));
      await new Promise((resolve) => setTimeout(resolve, 60));
      stored = Promise.all([firstStored, secondStored, thirdStored]);
      await holding.commitTransaction();
    } finally {
      await holding.release();
    }
    await stored;
    // finished_at is the writing transaction's start: one value per batch.
    const rows = await sdb.query(`SELECT id, finished_at FROM job_runs WHERE id = ANY($1)`, [[first.run.runId, second.run.runId, third.run.runId]]);
    const batchOf = new Map(rows.map((r: { id: string; finished_at: Date }) => [r.id, new Date(r.finished_at).getTime()]));
    expect(batchOf.get(second.run.runId)).toBe(batchOf.get(third.run.runId));
    expect(batchOf.get(second.run.runId)).not.toBe(batchOf.get(first.run.runId));
    expect(published.map((o) => o.runId).sort()).toEqual([first.run.runId, second.run.runId, third.run.runId].sort());
  });

  it('drops a result whose lease another instance has taken over', async () => {
    const { run } = await claimOne();
    await sdb.query(`UPDATE job_runs SET lease_owner = 'another-instance' WHERE id = $1`, [run.runId]);
    await scheduler.runs.record(run, result({}));
    const [stored] = await sdb.query(`SELECT state, status, lease_owner FROM job_runs WHERE id = $1`, [run.runId]);
    expect(stored).toEqual({ state: 'running', status: null, lease_owner: 'another-instance' });
    expect(published).toHaveLength(0);
  });

  it("holds a result back while a burst is sent, but never for half the lease's grace: its run's lease outlives the wait", async () => {
    // A lease ends the request's time limit plus the grace after the run's due time; held back longer than the
    // grace, a result still unwritten there would let another instance take the run over and send it again.
    const graceMs = 1_000;
    scheduler = sdb.instance({ SCHEDULER_LEASE_GRACE_MS: String(graceMs) });
    const { run } = await claimOne();
    scheduler.pressure.burstReleased(); // a group large enough to be a burst was released...
    scheduler.pressure.setWaiting(100); // ...and its runs wait for a slot: it goes on
    const started = performance.now();
    await scheduler.runs.record(run, result({}));
    const waited = performance.now() - started;
    scheduler.pressure.setWaiting(0);
    const [stored] = await sdb.query(`SELECT state FROM job_runs WHERE id = $1`, [run.runId]);
    expect(stored.state).toBe('done');
    expect(waited).toBeGreaterThanOrEqual(graceMs / 2 - 1); // held back: the burst still gets the database's share
    // Half the grace and the write, far from the recorder's longest hold (3 s), with room for a busy machine.
    expect(waited).toBeLessThan(graceMs * 2);
  });

  it('stores a batch of results in one go and publishes each once', async () => {
    const due = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    for (let i = 0; i < 3; i++) await sdb.createJob(await sdb.createUser('pro'), { cron: '* * * * *', nextRunAt: due });
    const { runs } = await scheduler.claimer.claimDueJobs(due, due.getTime());
    expect(runs).toHaveLength(3);
    await Promise.all(runs.map((run) => scheduler.runs.record(run, result({}))));
    const done = await sdb.query(`SELECT id FROM job_runs WHERE id = ANY($1::uuid[]) AND state = 'done' AND status = 'success'`, [runs.map((r) => r.runId)]);
    expect(done).toHaveLength(3);
    expect(published.map((o) => o.runId).sort()).toEqual(runs.map((r) => r.runId).sort());
  });
});
