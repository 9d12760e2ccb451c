import { AppConfig } from '../../backend/src/config/app-config';
import { InstanceLiveness, type LivenessEvent } from '../../backend/src/modules/scheduler/instance-liveness';
import { SchedulerInstancesRepository } from '../../backend/src/modules/scheduler/scheduler-instances.repository';
import { SchedulerSettings } from '../../backend/src/modules/scheduler/scheduler-settings';
import { WakeChannel } from '../../backend/src/modules/scheduler/wake-channel';
import { SchedulerDatabase } from './support/scheduler-database';

/**
 * The liveness and takeover statements on a real database (embedded, or
 * PostgreSQL with TEST_DATABASE_URL): an instance whose heartbeat went stale
 * loses, at once and with their ids, exactly the runs it provably never sent
 * (due after its last recorded release); runs it may have sent and manual runs
 * keep their lease; once taken over it can neither beat nor release again
 * until it rejoins.
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

  it('takes over the runs due after the last release of an instance whose heartbeat stopped, keeping their ids', async () => {
    const dead = sdb.instance();
    const survivor = sdb.instance();
    const userId = await sdb.createUser('pro');
    const released = at('2030-02-01T10:00:00Z');
    const unsent = at('2030-02-01T10:01:00Z');
    const sentJob = await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: released });
    const unsentJob = await sdb.createJob(userId, { cron: '0 0 1 1 *', nextRunAt: unsent });
    const claimed = await dead.claimer.claimDueJobs(unsent, released.getTime() - 3_000);
    expect(claimed.runs).toHaveLength(2);
    const runOf = (jobId: string) => claimed.runs.find((r) => r.jobId === jobId)!.runId;
    const [manual] = await sdb.query(
      `INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, due_at, state, lease_owner, lease_expires_at)
       VALUES ($1, $2, 'manual', $3, $3, 'running', $4, $5) RETURNING id`,
      [unsentJob, userId, at('2030-02-01T10:02:00Z'), dead.owner.id, at('2030-02-01T10:03:00Z')],
    );
    await instances.register(dead.owner.id);
    // The dead instance had released (so may have sent) the first due time, not the second.
    expect(await instances.markReleased(dead.owner.id, released)).toBe(true);
    const longLease = (await lease(runOf(sentJob))).lease_expires_at;

    // While its heartbeat is fresh, nothing is taken.
    expect((await survivor.claimer.takeOverDead(unsent.getTime())).runs).toHaveLength(0);
    expect(await instanceRows()).toEqual([{ id: dead.owner.id, taken_over_at: null }]);

    await goStale(dead.owner.id);
    const taken = await survivor.claimer.takeOverDead(unsent.getTime());
    expect(taken.more).toBe(false);
    expect(taken.runs.map((r) => r.runId)).toEqual([runOf(unsentJob)]);
    expect(taken.runs[0]).toMatchObject({ jobId: unsentJob, trigger: 'schedule', scheduledFor: unsent, dueAt: unsent, url: 'https://example.com/hook', body: 'ping' });
    expect(await lease(runOf(unsentJob))).toMatchObject({ lease_owner: survivor.owner.id, state: 'running' });
    // A run that may already be on the wire, and a manual run (sent when inserted), keep their long lease.
    expect(await lease(runOf(sentJob))).toEqual({ lease_owner: dead.owner.id, state: 'running', lease_expires_at: longLease });
    expect((await lease(manual.id)).lease_owner).toBe(dead.owner.id);
    // Nothing was left to take: the stale row is gone, and the dead instance cannot record a release any more.
    expect(await instanceRows()).toEqual([]);
    expect(await instances.markReleased(dead.owner.id, unsent)).toBe(false);
    expect(await instances.beat(dead.owner.id)).toBeNull();
  });

  it('takes over an instance that never released anything, batch by batch, and forgets it with the last batch', async () => {
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
    // Taken over but not yet forgotten: it can neither beat nor release.
    const [row] = await instanceRows();
    expect(row.id).toBe(dead.owner.id);
    expect(row.taken_over_at).not.toBeNull();
    expect(await instances.beat(dead.owner.id)).toBeNull();
    expect(await instances.markReleased(dead.owner.id, due)).toBe(false);

    const batch2 = await survivor.claimer.takeOverDead(due.getTime());
    expect(batch2.runs).toHaveLength(10);
    expect(batch2.more).toBe(false);
    expect([...batch1.runs, ...batch2.runs].map((r) => r.runId).sort()).toEqual(claimedIds);
    expect(await instanceRows()).toEqual([]);
    const owners = await sdb.query(`SELECT DISTINCT lease_owner FROM job_runs WHERE user_id = $1`, [userId]);
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
    expect(await instances.markReleased(b.owner.id, at('2030-01-01T00:00:00Z'))).toBe(true);
    // The release mark never moves back.
    expect(await instances.markReleased(b.owner.id, at('2029-01-01T00:00:00Z'))).toBe(true);
    const [row] = await sdb.query(`SELECT released_through, taken_over_at FROM scheduler_instances WHERE id = $1`, [b.owner.id]);
    expect(row).toEqual({ released_through: at('2030-01-01T00:00:00Z'), taken_over_at: null });
    // A graceful stop deletes the row.
    await instances.remove(b.owner.id);
    expect((await instanceRows()).map((r) => r.id)).toEqual([a.owner.id]);
  });
  /** An instance's liveness service whose own heartbeat timer stays out of the way (one beat a minute). */
  function livenessOf(parts: ReturnType<SchedulerDatabase['instance']>) {
    const settings = new SchedulerSettings(AppConfig.fromEnvironment({ NODE_ENV: 'test', SCHEDULER_HEARTBEAT_INTERVAL_MS: '60000' }));
    const liveness = new InstanceLiveness(settings, instances, parts.runs, new WakeChannel(sdb.db));
    const events: LivenessEvent[] = [];
    liveness.events$.subscribe((event) => events.push(event));
    return { liveness, events };
  }

  (onPostgres ? it : it.skip)('on PostgreSQL, an instance taken over may not release any more until it rejoins', async () => {
    const a = sdb.instance();
    const { liveness, events } = livenessOf(a);
    const due = Date.now() + 1_000;
    await liveness.start();
    expect(liveness.mayRelease(due)).toBe(false);
    expect(await liveness.markReleased(due)).toBe(true);
    expect(liveness.mayRelease(due)).toBe(true);
    expect(await sdb.query(`SELECT released_through FROM scheduler_instances WHERE id = $1`, [a.owner.id])).toEqual([{ released_through: new Date(due) }]);

    await goStale(a.owner.id);
    await sdb.instance().claimer.takeOverDead(Date.now());
    expect(await liveness.markReleased(due + 1_000)).toBe(false);
    expect(liveness.mayRelease(due + 1_000)).toBe(false);
    expect(events).toEqual(['taken-over']);

    await liveness.revive();
    expect(await liveness.markReleased(due + 1_000)).toBe(true);
    await liveness.stop();
    expect(await instanceRows()).toEqual([]);
  });

  (onPostgres ? it.skip : it)('on the embedded database (one process: no instance dies alone), releases are never recorded', async () => {
    const { liveness, events } = livenessOf(sdb.instance());
    expect(await liveness.applies()).toBe(false);
    expect(await liveness.markReleased(Date.now() + 1_000)).toBe(true);
    expect(liveness.mayRelease(Date.now() + 3_600_000)).toBe(true);
    expect(await instanceRows()).toEqual([]);
    expect(events).toEqual([]);
  });
});
