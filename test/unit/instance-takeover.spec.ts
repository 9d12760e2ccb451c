import { AppConfig } from '../../backend/src/config/app-config';
import { InstanceLiveness, type LivenessEvent } from '../../backend/src/modules/scheduler/instance-liveness';
import { SchedulerInstancesRepository } from '../../backend/src/modules/scheduler/scheduler-instances.repository';
import { SchedulerSettings } from '../../backend/src/modules/scheduler/scheduler-settings';
import { WakeChannel } from '../../backend/src/modules/scheduler/wake-channel';
import { SchedulerDatabase } from './support/scheduler-database';

/**
 * The liveness and takeover statements on a real database (embedded, or
 * PostgreSQL with TEST_DATABASE_URL): an instance whose heartbeat went stale
 * loses, at once and with their ids, all its runs; those in its dispatch log
 * (and manual runs) come back as possibly sent, the others as never sent;
 * once taken over it can neither beat nor log a dispatch again until it
 * rejoins.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe('instance liveness and takeover (database level)', () => {
  let sdb: SchedulerDatabase;
  let instances: SchedulerInstancesRepository;

  beforeAll(async () => {
    sdb = await SchedulerDatabase.start();
    instances = new SchedulerInstancesRepository(sdb.db);
  });
  afterAll(async () => {
    await sdb?.close();
  });
  beforeEach(() => sdb.clear());

  const at = (iso: string) => new Date(iso);
  /** What the process of a killed instance left behind: a heartbeat 10 s old. */
  const goStale = (id: string) => sdb.query(`UPDATE scheduler_instances SET heartbeat_at = now() - interval '10 seconds' WHERE id = $1`, [id]);
  const lease = async (runId: string) => (await sdb.query(`SELECT lease_owner, state, lease_expires_at FROM job_runs WHERE id = $1`, [runId]))[0];
  const instanceRows = () => sdb.query(`SELECT id, taken_over_at FROM scheduler_instances ORDER BY id`);

  it('takes over every run of an instance whose heartbeat stopped, keeping their ids: only those in its dispatch log (and manual ones) as possibly sent', async () => {
    const dead = sdb.instance();
    const survivor = sdb.instance();
    const userId = await sdb.createUser('pro');
    const due = at('2030-02-01T10:00:00Z');
    const later = at('2030-02-01T10:01:00Z');
    const sentJob = await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: due });
    const unsentJob = await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: due });
    const laterJob = await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: later });
    await sdb.query(`UPDATE jobs SET delivery = 'at_most_once' WHERE id = $1`, [sentJob]);
    const claimed = await dead.claimer.claimDueJobs(later, due.getTime() - 3_000);
    expect(claimed.runs).toHaveLength(3);
    const runOf = (jobId: string) => claimed.runs.find((r) => r.jobId === jobId)!.runId;
    const [manual] = await sdb.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, lease_owner, lease_expires_at)
       VALUES ($1, $2, 'manual', $3, $3, 'running', $4, $5) RETURNING id`,
      [unsentJob, userId, at('2030-02-01T10:02:00Z'), dead.owner.id, at('2030-02-01T10:03:00Z')],
    );
    await instances.register(dead.owner.id);
    // The dead instance had logged one run of the instant (it may be on the wire), not the other one nor the later run.
    expect(await instances.recordDispatch(dead.owner.id, [runOf(sentJob)])).toBe(true);

    // While its heartbeat is fresh, nothing is taken.
    expect((await survivor.claimer.takeOverDead(due.getTime())).runs).toHaveLength(0);
    expect(await instanceRows()).toEqual([{ id: dead.owner.id, taken_over_at: null }]);

    await goStale(dead.owner.id);
    const taken = await survivor.claimer.takeOverDead(due.getTime());
    expect(taken.more).toBe(false);
    const byId = new Map(taken.runs.map((r) => [r.runId, r]));
    expect([...byId.keys()].sort()).toEqual([runOf(sentJob), runOf(unsentJob), runOf(laterJob), manual.id].sort());
    expect(byId.get(runOf(unsentJob))).toMatchObject({ jobId: unsentJob, trigger: 'schedule', scheduledFor: due, dueAt: due, uncertain: false, possibleDuplicate: false, delivery: 'at_least_once', url: 'https://example.com/hook', body: 'ping' });
    expect(byId.get(runOf(laterJob))).toMatchObject({ uncertain: false, possibleDuplicate: false, dueAt: later });
    expect(byId.get(runOf(sentJob))).toMatchObject({ uncertain: true, possibleDuplicate: false, delivery: 'at_most_once' });
    expect(byId.get(manual.id)).toMatchObject({ trigger: 'manual', uncertain: true });
    for (const id of byId.keys()) expect(await lease(id)).toMatchObject({ lease_owner: survivor.owner.id, state: 'running' });
    // Nothing was left to take: the stale row and its log are gone, and the dead instance cannot log a dispatch any more.
    expect(await instanceRows()).toEqual([]);
    expect(await sdb.query(`SELECT 1 FROM scheduler_dispatches`)).toEqual([]);
    expect(await instances.recordDispatch(dead.owner.id, [runOf(unsentJob)])).toBe(false);
    expect(await instances.beat(dead.owner.id)).toBeNull();
  });

  it('a run whose lease expired comes back as possibly sent', async () => {
    const gone = sdb.instance();
    const other = sdb.instance();
    const userId = await sdb.createUser('pro');
    const due = at('2030-02-02T10:00:00Z');
    const jobId = await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: due });
    const [run] = (await gone.claimer.claimDueJobs(due, due.getTime() - 1_000)).runs;
    const expired = new Date((await lease(run.runId)).lease_expires_at.getTime() + 1);
    const [orphan] = await sdb.db.transaction((tx) => other.runs.leaseExpired(tx, 10, expired.getTime()));
    expect(orphan).toMatchObject({ id: run.runId, job_id: jobId, possible_duplicate: false, uncertain: true });
  });

  it('takes over an instance that never sent anything, batch by batch, and forgets it with the last batch', async () => {
    const dead = sdb.instance(); // batches of 50 (SchedulerDatabase)
    const survivor = sdb.instance();
    const userId = await sdb.createUser('unlimited');
    const due = at('2030-03-01T08:00:00Z');
    for (let i = 0; i < 60; i++) await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: due });
    const first = await dead.claimer.claimDueJobs(due, due.getTime() - 2_000);
    const second = await dead.claimer.claimDueJobs(due, due.getTime() - 2_000);
    const claimedIds = [...first.runs, ...second.runs].map((r) => r.runId).sort();
    expect(claimedIds).toHaveLength(60);
    await instances.register(dead.owner.id);
    await goStale(dead.owner.id);

    const batch1 = await survivor.claimer.takeOverDead(due.getTime());
    expect(batch1.runs).toHaveLength(50);
    expect(batch1.more).toBe(true);
    expect(batch1.runs.every((r) => !r.uncertain)).toBe(true);
    // Taken over but not yet forgotten: it can neither beat nor log a dispatch.
    const [row] = await instanceRows();
    expect(row.id).toBe(dead.owner.id);
    expect(row.taken_over_at).not.toBeNull();
    expect(await instances.beat(dead.owner.id)).toBeNull();
    expect(await instances.recordDispatch(dead.owner.id, [claimedIds[0]])).toBe(false);

    const batch2 = await survivor.claimer.takeOverDead(due.getTime());
    expect(batch2.runs).toHaveLength(10);
    expect(batch2.more).toBe(false);
    expect([...batch1.runs, ...batch2.runs].map((r) => r.runId).sort()).toEqual(claimedIds);
    expect(await instanceRows()).toEqual([]);
    const owners = await sdb.query(`SELECT DISTINCT lease_owner FROM job_runs WHERE account_id = $1`, [userId]);
    expect(owners).toEqual([{ lease_owner: survivor.owner.id }]);
  });

  it('a heartbeat answers how old the oldest other heartbeat is, on the database clock; a taken-over instance rejoins with a fresh row', async () => {
    const a = sdb.instance();
    const b = sdb.instance();
    await instances.register(a.owner.id);
    expect(await instances.beat(a.owner.id)).toMatchObject({ oldest_other_ms: null });
    await instances.register(b.owner.id);
    await goStale(b.owner.id);
    const beat = (await instances.beat(a.owner.id))!;
    expect(beat.now_ms - beat.oldest_other_ms!).toBeGreaterThanOrEqual(10_000);
    expect(beat.now_ms - beat.oldest_other_ms!).toBeLessThan(11_000);

    // b is taken over (a transaction that marks it; no runs to move), then comes back.
    expect((await sdb.db.transaction((tx) => a.liveness.takeOverStale(tx))).map((r) => r.id)).toEqual([b.owner.id]);
    expect(await instances.beat(b.owner.id)).toBeNull();
    await instances.register(b.owner.id);
    expect(await instances.beat(b.owner.id)).not.toBeNull();
    const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    expect(await instances.recordDispatch(b.owner.id, [ids[0]])).toBe(true);
    expect(await instances.recordDispatch(b.owner.id, ids)).toBe(true);
    expect((await sdb.db.transaction((tx) => instances.dispatchedRuns(tx, [b.owner.id]))).sort()).toEqual(ids);
    // Old entries are pruned by their instance; fresh ones stay.
    await instances.pruneDispatches(b.owner.id, 60_000);
    expect(await sdb.query(`SELECT count(*)::int AS n FROM scheduler_dispatches`)).toEqual([{ n: 2 }]);
    await sdb.query(`UPDATE scheduler_dispatches SET created_at = now() - interval '2 minutes' WHERE $1 = ANY(run_ids) AND cardinality(run_ids) = 1`, [ids[0]]);
    await instances.pruneDispatches(b.owner.id, 60_000);
    expect(await sdb.query(`SELECT count(*)::int AS n FROM scheduler_dispatches`)).toEqual([{ n: 1 }]);
    // A graceful stop deletes the row and its log.
    await instances.remove(b.owner.id);
    expect((await instanceRows()).map((r) => r.id)).toEqual([a.owner.id]);
    expect(await sdb.query(`SELECT 1 FROM scheduler_dispatches`)).toEqual([]);
  });
  /** An instance's liveness service whose own heartbeat timer stays out of the way (one beat a minute). */
  function livenessOf(parts: ReturnType<SchedulerDatabase['instance']>) {
    const settings = new SchedulerSettings(AppConfig.fromEnvironment({ NODE_ENV: 'test', SCHEDULER_HEARTBEAT_INTERVAL_MS: '60000' }));
    const liveness = new InstanceLiveness(settings, instances, parts.runs, new WakeChannel(sdb.db));
    const events: LivenessEvent[] = [];
    liveness.events$.subscribe((event) => events.push(event));
    return { liveness, events };
  }

  (onPostgres ? it : it.skip)('on PostgreSQL, an instance taken over may not log a dispatch (so sends nothing) until it rejoins', async () => {
    const a = sdb.instance();
    const { liveness, events } = livenessOf(a);
    const run = '00000000-0000-4000-8000-000000000003';
    expect(await liveness.onServer()).toBe(true);
    await liveness.start();
    expect(await liveness.recordDispatch([run])).toBe(true);
    expect(await sdb.query(`SELECT instance_id, run_ids FROM scheduler_dispatches`)).toEqual([{ instance_id: a.owner.id, run_ids: [run] }]);

    await goStale(a.owner.id);
    await sdb.instance().claimer.takeOverDead(Date.now());
    expect(await liveness.recordDispatch([run])).toBe(false);
    expect(liveness.takenOver).toBe(true);
    // Refused again before rejoining: still one event (the rejoin is already on its way).
    expect(await liveness.recordDispatch([run])).toBe(false);
    expect(events).toEqual(['taken-over']);

    await liveness.revive();
    expect(liveness.takenOver).toBe(false);
    expect(await liveness.recordDispatch([run])).toBe(true);
    await liveness.stop();
    expect(await instanceRows()).toEqual([]);
  });

  (onPostgres ? it.skip : it)('on the embedded database (one process), the row anchors the dispatch log and a new process takes over the runs of every other process at once', async () => {
    const sibling = sdb.instance(); // another application in this process, as tests run them: alive
    const userId = await sdb.createUser('pro');
    const due = at('2030-04-01T10:00:00Z');
    const sent = await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: due });
    await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: due });
    await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: due });
    const claimed = await sibling.claimer.claimDueJobs(due, due.getTime() - 1_000);
    expect(claimed.runs).toHaveLength(3);
    const { liveness: siblingLiveness } = livenessOf(sibling);
    expect(await siblingLiveness.onServer()).toBe(false);
    await siblingLiveness.start();
    // What a previous process left: its row, two of the runs, one of them in its dispatch log.
    const previous = 'elsewhere:4242:abcdef';
    const sentRun = claimed.runs.find((r) => r.jobId === sent)!.runId;
    const orphan = claimed.runs.find((r) => r.jobId !== sent && r.runId !== sentRun)!.runId;
    const siblingRun = claimed.runs.find((r) => r.runId !== sentRun && r.runId !== orphan)!.runId;
    await instances.register(previous);
    await sdb.query(`UPDATE job_runs SET lease_owner = $1 WHERE id = ANY($2::uuid[])`, [previous, `{${sentRun},${orphan}}`]);
    expect(await instances.recordDispatch(previous, [sentRun])).toBe(true);

    // A new process starts (its heartbeat-less row, no stale time to wait for).
    const next = sdb.instance();
    const { liveness, events } = livenessOf(next);
    await liveness.start();
    const taken = await next.claimer.takeOverDead(due.getTime(), true);
    expect(taken.runs.map((r) => [r.runId, r.uncertain]).sort()).toEqual(
      [
        [sentRun, true],
        [orphan, false],
      ].sort(),
    );
    // The sibling of this process keeps its run and its row.
    expect((await lease(siblingRun)).lease_owner).toBe(sibling.owner.id);
    expect((await instanceRows()).map((r) => r.id).sort()).toEqual([sibling.owner.id, next.owner.id].sort());
    expect(events).toEqual([]);
    await liveness.stop();
    await siblingLiveness.stop();
  });
});
