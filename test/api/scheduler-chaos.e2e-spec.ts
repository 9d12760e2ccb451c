import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createApp } from '../../backend/src/bootstrap';
import { AppConfig } from '../../backend/src/config/app-config';
import { openDatabase } from '../../backend/src/database/database-endpoint';
import { HttpTarget } from '../fakes/http-target';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { eventually, FAST_SCHEDULER_ENV, hourlyScheduleAwayFromNow, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';
import { freePort } from '../support/free-port';
import { startServerProcess } from '../support/server-process';

jest.setTimeout(90_000);

const ROOT = path.resolve(__dirname, '../..');
const EXECUTION_ID = 'x-cronbeam-execution-id';
/** The promise: a run held by an instance killed before its instant arrives within this of the instant. */
const TAKEOVER_TARGET_MS = 5_000;


/** One backend process (the real entry point, TypeScript through SWC) scheduling on the test's PostgreSQL. */
class InstanceProcess {
  private output = '';
  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  static async start(databaseUrl: string, env: Record<string, string>): Promise<InstanceProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'backend/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SWC_NODE_PROJECT: 'tsconfig.backend.json', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const instance = new InstanceProcess(child);
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode}:\n${instance.output}`);
      return fetch(`http://127.0.0.1:${port}/api/ready`).then((r) => r.ok, () => false);
    }, 60_000, 'instance ready');
    return instance;
  }

  /** Its lease owner id ("host:pid:random") starts with this. */
  get ownerPrefix(): string {
    return `${os.hostname()}:${this.child.pid}:`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * kill -9 needs two OS processes sharing one database. The embedded database
 * lives inside the process that opened it and cannot be shared with another
 * process, so this part runs on PostgreSQL (TEST_DATABASE_URL) only, and is
 * reported as skipped, not passed, without it.
 */
(onPostgres ? describe : describe.skip)('scheduler chaos on PostgreSQL: one of two instance processes stalled or killed just before a burst', () => {
  const JOBS = 400;
  let database: TestDatabase;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  const instances: InstanceProcess[] = [];

  beforeAll(async () => {
    target = await HttpTarget.start();
    database = await createTestDatabase(4);
    // Production leases (execution timeout 30 s + grace 30 s): without the fast takeover a run of the killed instance arrives a minute late.
    // Small claim batches, so that both instances claim part of the burst.
    const env = { SCHEDULER_ENABLED: 'true', ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER_POLL_INTERVAL_MS: '200', SCHEDULER_BATCH_SIZE: '40', SCHEDULER_IDLE_GC: 'false' };
    instances.push(await InstanceProcess.start(database.url, env)); // the first one migrates
    instances.push(await InstanceProcess.start(database.url, env)); // (twoLiveInstances replaces killed ones with the same settings)
    db = await SchedulerFixtures.connect(database.url);
    await eventually(async () => (await db.query(`SELECT id FROM scheduler_instances`)).length === 2, 10_000, 'both liveness rows');
  });

  afterAll(async () => {
    await db?.close();
    for (const instance of instances) await instance.stop();
    await database?.drop();
    await target?.close();
  });

  const instanceEnv = { SCHEDULER_ENABLED: 'true', ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER_POLL_INTERVAL_MS: '200', SCHEDULER_BATCH_SIZE: '40', SCHEDULER_IDLE_GC: 'false' };

  /** Two live instance processes again after one was killed or stopped: starts what is missing, waits for both liveness rows. */
  async function twoLiveInstances(): Promise<[InstanceProcess, InstanceProcess]> {
    for (let i = instances.length - 1; i >= 0; i--) if (instances[i].child.exitCode !== null || instances[i].child.signalCode !== null) instances.splice(i, 1);
    while (instances.length < 2) instances.push(await InstanceProcess.start(database.url, instanceEnv));
    await eventually(async () => (await db.query(`SELECT id FROM scheduler_instances WHERE taken_over_at IS NULL`)).length === 2, 10_000, 'both liveness rows');
    return [instances[0], instances[1]];
  }

  /**
   * Inserts a burst of JOBS jobs due in 6 s, waits until the two instances have
   * claimed it, then disrupts the instance holding more of it somewhere in the
   * last second before the instant, and counts the deliveries per job.
   */
  async function disruptedBurst(name: string, how: string, disrupt: (victim: InstanceProcess) => void) {
    const userId = await db.user('unlimited');
    const due = new Date(Date.now() + 6_000);
    await db.query(
      `INSERT INTO jobs (account_id, name, url, cron_expression, status, next_run_at)
       SELECT $1, '${name}-' || n, $2 || '/${name}?n=' || n, '0 0 1 1 *', 'scheduled', $3
       FROM generate_series(1, ${JOBS}) AS n`,
      [userId, target.url, due],
    );
    // Both instances claim the burst ahead of its instant (3 s look-ahead).
    const claimed = await eventually(async () => {
      const rows = await db.query<{ id: string; lease_owner: string }>(`SELECT id, lease_owner FROM job_runs WHERE account_id = $1 AND state = 'running'`, [userId]);
      return rows.length === JOBS ? rows : null;
    }, 10_000, 'the whole burst claimed');
    const held = (instance: InstanceProcess) => claimed.filter((r) => r.lease_owner.startsWith(instance.ownerPrefix));
    expect(held(instances[0]).length + held(instances[1]).length).toBe(JOBS);
    const [victim, survivor] = held(instances[0]).length >= held(instances[1]).length ? instances : [instances[1], instances[0]];
    const victimRuns = new Set(held(victim).map((r) => r.id));
    expect(victimRuns.size).toBeGreaterThan(0);

    const disruptAt = due.getTime() - 100 - Math.random() * 800;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, disruptAt - Date.now())));
    disrupt(victim);
    const beforeInstantMs = due.getTime() - Date.now();
    expect(beforeInstantMs).toBeGreaterThan(0);
    await target.waitFor(() => new Set(target.requests(`/${name}`).map((r) => r.path)).size >= JOBS, 30_000);

    const figures = () => {
      const requests = target.requests(`/${name}`);
      const perJob = new Set(requests.map((r) => r.path));
      const takenOver = requests.filter((r) => victimRuns.has(String(r.headers[EXECUTION_ID])));
      const lateness = takenOver.map((r) => r.arrivedAt - due.getTime()).sort((a, b) => a - b);
      const others = requests.filter((r) => !victimRuns.has(String(r.headers[EXECUTION_ID]))).map((r) => r.arrivedAt - due.getTime());
      const result = {
        received: requests.length,
        lost: JOBS - perJob.size,
        doubled: requests.length - perJob.size,
        early: requests.filter((r) => r.arrivedAt < due.getTime()).length,
        takenOver: takenOver.length,
        maxLateness: lateness[lateness.length - 1],
      };
      process.stdout.write(
        [
          '',
          `Chaos (PostgreSQL, 2 instance processes, ${how} ${(beforeInstantMs / 1000).toFixed(2)} s before a burst of ${JOBS}):`,
          `  deliveries expected ${JOBS}, received ${result.received}, lost ${result.lost}, doubled ${result.doubled}, early ${result.early}`,
          `  runs held by the disrupted instance ${victimRuns.size}, taken over and delivered ${takenOver.length}; lateness p50 ${(lateness[Math.floor(lateness.length / 2)] / 1000).toFixed(2)} s, max ${(result.maxLateness / 1000).toFixed(2)} s (target ${TAKEOVER_TARGET_MS / 1000} s)`,
          `  runs of the other instance ${others.length}${others.length > 0 ? `, max lateness ${(Math.max(...others) / 1000).toFixed(3)} s` : ''}`,
          '',
        ].join('\n'),
      );
      return result;
    };
    const recorded = async () => {
      const runs = await eventually(async () => {
        const rows = await db.query<{ id: string; status: string }>(`SELECT id, status FROM job_runs WHERE account_id = $1`, [userId]);
        return rows.length === JOBS && rows.every((r) => r.status === 'success') ? rows : null;
      }, 15_000, 'every run recorded');
      // Execution ids unchanged: the runs are the rows claimed before the disruption.
      expect(new Set(runs.map((r) => r.id))).toEqual(new Set(claimed.map((r) => r.id)));
    };
    return { victim, survivor, victimRuns, figures, recorded };
  }

  it(`a stalled instance (SIGSTOP across the instant): its runs are taken over within ${TAKEOVER_TARGET_MS / 1000} s; resumed, it sends none of them again and rejoins`, async () => {
    const burst = await disruptedBurst('stall', 'SIGSTOP', (victim) => victim.child.kill('SIGSTOP'));
    burst.victim.child.kill('SIGCONT');
    // Resumed, its timers fire at once: whatever it would still send arrives before it has rejoined and a later run has fired.
    await eventually(async () => {
      const rows = await db.query<{ id: string }>(`SELECT id FROM scheduler_instances WHERE taken_over_at IS NULL`);
      return rows.some((r) => r.id.startsWith(burst.victim.ownerPrefix)) && rows.length === 2;
    }, 15_000, 'the stalled instance rejoined');
    await schedulerPassed(db, `${target.url}/sentinel`, 500);
    const result = burst.figures();
    expect(result).toMatchObject({ lost: 0, doubled: 0, early: 0, takenOver: burst.victimRuns.size });
    expect(result.maxLateness).toBeLessThan(TAKEOVER_TARGET_MS);
    await burst.recorded();
  });

  it(`kill -9: every run arrives once, those of the killed instance within ${TAKEOVER_TARGET_MS / 1000} s of their instant, with their execution ids`, async () => {
    const burst = await disruptedBurst('kill', 'kill -9', (victim) => victim.child.kill('SIGKILL'));
    await schedulerPassed(db, `${target.url}/sentinel`, 500); // a second delivery of anything would have arrived by now
    const result = burst.figures();
    expect(result).toMatchObject({ lost: 0, doubled: 0, early: 0, takenOver: burst.victimRuns.size });
    expect(result.maxLateness).toBeLessThan(TAKEOVER_TARGET_MS);
    await burst.recorded();
    // The dead instance's row is forgotten once nothing of it is left; the survivor's stays.
    const rows = await db.query<{ id: string }>(`SELECT id FROM scheduler_instances`);
    expect(rows.map((r) => r.id.startsWith(burst.survivor.ownerPrefix))).toEqual([true]);
    // A graceful stop deletes the instance's row at once.
    await burst.survivor.stop();
    expect(await db.query(`SELECT id FROM scheduler_instances`)).toEqual([]);
  });

  /**
   * kill -9 of the instance holding more of a burst of KILL_JOBS, `offsetMs`
   * after the instant, while the target takes ANSWER_MS to answer (so that
   * what was sent is still on the wire). Counts deliveries per execution id:
   * a run may arrive twice only if it had arrived before the kill and its job
   * allows it (at_least_once); every other delivery comes within 5 s of the
   * instant (plus the offset).
   */
  const KILL_JOBS = 500;
  const ANSWER_MS = 400;
  /**
   * The burst is spread over this many target origins: an origin gets 32
   * connections at first, and 500 slow requests to one origin would queue
   * behind them for seconds, which is not what these trials measure.
   */
  const ORIGINS = 16;
  const slowTargets: HttpTarget[] = [];
  afterAll(async () => {
    for (const t of slowTargets) await t.close();
  });
  /**
   * Requests written to a socket before the kill may be read by the target
   * later: on a machine busy with other test files, over 150 ms later (seen:
   * none of 280 read within 100 ms, all of them sent). The survivor sends a
   * killed instance's runs only after taking them over, once its heartbeat is
   * stale (SCHEDULER_INSTANCE_STALE_MS, 3 s, after its last beat: at least 2 s
   * after the kill), so whatever arrives within this of the kill was sent by
   * the killed instance.
   */
  const ON_THE_WIRE_MARGIN_MS = 1_000;

  async function killAround(name: string, offsetMs: number, atMostOnceEvery: number) {
    await twoLiveInstances();
    while (slowTargets.length < ORIGINS) slowTargets.push(await HttpTarget.start());
    for (const t of slowTargets) t.on(`/${name}`, (_req, res) => setTimeout(() => res.writeHead(200).end('ok'), ANSWER_MS));
    const userId = await db.user('unlimited');
    const due = new Date(Date.now() + 6_000);
    await db.query(
      `INSERT INTO jobs (account_id, name, url, cron_expression, status, next_run_at, delivery)
       SELECT $1, '${name}-' || n, ($2::text[])[1 + n % ${ORIGINS}] || '/${name}?n=' || n, '0 0 1 1 *', 'scheduled', $3,
              CASE WHEN $4 > 0 AND n % $4 = 0 THEN 'at_most_once' ELSE 'at_least_once' END
       FROM generate_series(1, ${KILL_JOBS}) AS n`,
      [userId, `{${slowTargets.map((t) => t.url).join(",")}}`, due, atMostOnceEvery],
    );
    const claimed = await eventually(async () => {
      const rows = await db.query<{ id: string; lease_owner: string; delivery: string }>(
        `SELECT r.id, r.lease_owner, j.delivery FROM job_runs r JOIN jobs j ON j.id = r.job_id WHERE r.account_id = $1 AND r.state = 'running'`,
        [userId],
      );
      return rows.length === KILL_JOBS ? rows : null;
    }, 10_000, 'the whole burst claimed');
    const held = (instance: InstanceProcess) => claimed.filter((r) => r.lease_owner.startsWith(instance.ownerPrefix));
    const [victim] = held(instances[0]).length >= held(instances[1]).length ? instances : [instances[1], instances[0]];
    const victimRuns = new Set(held(victim).map((r) => r.id));
    const atMostOnce = new Set(claimed.filter((r) => r.delivery === 'at_most_once').map((r) => r.id));

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due.getTime() + offsetMs - Date.now())));
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();

    // Every run is recorded once: sent (success), or, for an at_most_once run that was on the wire, "outcome unknown".
    const runs = await eventually(async () => {
      const rows = await db.query<{ id: string; status: string; error_message: string | null; possible_duplicate: boolean }>(
        `SELECT id, status, error_message, possible_duplicate FROM job_runs WHERE account_id = $1`,
        [userId],
      );
      return rows.length === KILL_JOBS && rows.every((r) => r.status !== null) ? rows : null;
    }, 20_000, 'every run recorded');
    await schedulerPassed(db, `${target.url}/sentinel`, 500); // a late second delivery would have arrived by now

    const deliveries = new Map<string, number[]>();
    for (const r of slowTargets.flatMap((t) => t.requests(`/${name}`))) {
      const id = String(r.headers[EXECUTION_ID]);
      deliveries.set(id, [...(deliveries.get(id) ?? []), r.arrivedAt]);
    }
    const onTheWire = new Set([...deliveries].filter(([id, at]) => victimRuns.has(id) && at[0] < killedAt + ON_THE_WIRE_MARGIN_MS).map(([id]) => id));
    const doubled = [...deliveries].filter(([, at]) => at.length > 1).map(([id]) => id);
    const unknown = runs.filter((r) => r.status === 'failed' && r.error_message?.startsWith('Outcome unknown'));
    const lateness = [...deliveries.values()].flat().map((at) => at - due.getTime());
    const victimLateness = [...deliveries].filter(([id]) => victimRuns.has(id)).map(([, at]) => at[at.length - 1] - due.getTime()).sort((a, b) => a - b);
    const figures = {
      received: [...deliveries.values()].flat().length,
      neverDelivered: runs.filter((r) => !deliveries.has(r.id)).length,
      doubled: doubled.length,
      onTheWire: onTheWire.size,
      unknown: unknown.length,
      early: lateness.filter((ms) => ms < 0).length,
      maxLateness: Math.max(...lateness),
    };
    process.stdout.write(
      [
        '',
        `Chaos (PostgreSQL, 2 instance processes, kill -9 ${offsetMs >= 0 ? '+' : ''}${offsetMs} ms after the instant of ${KILL_JOBS} runs, target answering in ${ANSWER_MS} ms, ${atMostOnce.size} at_most_once):`,
        `  killed instance held ${victimRuns.size}; of them ${onTheWire.size} had reached the target before the kill`,
        `  deliveries ${figures.received}: doubled ${figures.doubled} (all among those on the wire: ${doubled.every((id) => onTheWire.has(id))}), never delivered ${figures.neverDelivered}, early ${figures.early}`,
        `  recorded: ${runs.filter((r) => r.status === 'success').length} success, ${figures.unknown} outcome unknown (at_most_once on the wire), ${runs.filter((r) => r.possible_duplicate).length} marked possible_duplicate`,
        `  killed instance's runs: last delivery p50 ${(victimLateness[Math.floor(victimLateness.length / 2)] / 1000).toFixed(2)} s, max ${(victimLateness[victimLateness.length - 1] / 1000).toFixed(2)} s after the instant`,
        '',
      ].join('\n'),
    );

    expect(figures.early).toBe(0);
    // Doubles only among requests that were on the wire at the kill, and never for an at_most_once job.
    for (const id of doubled) {
      expect(onTheWire.has(id)).toBe(true);
      // The margin's premise: the second copy comes from the takeover, after it.
      expect(deliveries.get(id)![1]).toBeGreaterThanOrEqual(killedAt + ON_THE_WIRE_MARGIN_MS);
      expect(atMostOnce.has(id)).toBe(false);
      expect(runs.find((r) => r.id === id)?.possible_duplicate).toBe(true);
    }
    // Nothing lost: a run never delivered is an at_most_once run recorded as unknown (it was handed to the wire, then the process died).
    for (const r of runs.filter((run) => !deliveries.has(run.id))) {
      expect(atMostOnce.has(r.id)).toBe(true);
      expect(unknown).toContainEqual(r);
    }
    // Unknown outcomes only for at_most_once runs the killed instance may have sent.
    for (const r of unknown) expect(atMostOnce.has(r.id) && victimRuns.has(r.id)).toBe(true);
    expect(runs.filter((r) => r.status !== 'success' && !unknown.includes(r))).toEqual([]);
    expect(figures.maxLateness).toBeLessThan(TAKEOVER_TARGET_MS + Math.max(0, offsetMs));
    return { figures, victimRuns, atMostOnce };
  }

  it('kill -9 50 ms after the instant: only requests already on the wire are sent again (at_least_once, marked possible_duplicate); at_most_once runs are recorded "outcome unknown", never doubled', async () => {
    const { figures, atMostOnce } = await killAround('kill-50', 50, 5);
    expect(atMostOnce.size).toBe(KILL_JOBS / 5);
    expect(figures.onTheWire).toBeGreaterThan(0);
  });

  it('kill -9 200 ms after the instant: the same, with every run on the wire', async () => {
    await killAround('kill-200', 200, 0);
  });

  it('kill -9 1 s after the instant (every answer stored): nothing is sent twice', async () => {
    const { figures } = await killAround('kill-1000', 1_000, 0);
    expect(figures.doubled).toBe(0);
  });
});

/**
 * The embedded database lives in the server's process: stopping the server
 * stops it. A burst fires, the server stops (gracefully) and a second burst's
 * instant passes while it is down, then it starts again on the same data
 * directory: the second burst fires once, late, as recovery runs, and
 * an hourly job whose due times passed during the outage fires its latest one
 * and records the others as missed.
 */
describe('scheduler across a restart of the embedded database (server stopped and started on the same data directory)', () => {
  const JOBS = 50;
  let target: HttpTarget;
  let dataDir: string;
  let config: AppConfig;

  beforeAll(async () => {
    target = await HttpTarget.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-chaos-'));
    // Leases of 10.5 s: the fast settings' 1.5 s lease can end before a loaded machine has stored a result, and the run is sent again.
    config = AppConfig.fromEnvironment({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...FAST_SCHEDULER_ENV, EXECUTION_TIMEOUT_MS: '10000' });
  });
  afterAll(async () => {
    await target?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function boot() {
    const database = await openDatabase(config);
    const app = await createApp(config, { databaseUrl: database.url });
    await app.init();
    const db = await SchedulerFixtures.connect(database.url);
    return {
      db,
      stop: async () => {
        await db.close();
        await app.close();
        await database.close();
      },
    };
  }

  const burst = (db: SchedulerFixtures, userId: string, name: string, due: Date) =>
    db.query(
      `INSERT INTO jobs (account_id, name, url, cron_expression, status, next_run_at)
       SELECT $1, '${name}-' || n, $2 || '/${name}?n=' || n, '0 0 1 1 *', 'scheduled', $3
       FROM generate_series(1, ${JOBS}) AS n`,
      [userId, target.url, due],
    );

  it('loses nothing: the burst due while it was down fires once as recovery runs, missed hourly instants are recorded', async () => {
    const first = await boot();
    const userId = await first.db.user('unlimited');
    const firstDue = new Date(Date.now() + 1_500);
    const downDue = new Date(firstDue.getTime() + 7_000);
    await burst(first.db, userId, 'before', firstDue);
    await burst(first.db, userId, 'during', downDue);
    await target.waitFor(() => target.requests('/before').length >= JOBS, 20_000);
    await eventually(async () => (await first.db.query(`SELECT 1 FROM job_runs WHERE state <> 'done'`)).length === 0, 10_000, 'first burst recorded');
    await first.stop();
    // Stopped before the second burst was claimed (400 ms look-ahead): its instant passes with nothing running.
    expect(Date.now()).toBeLessThan(downDue.getTime() - 1_000);
    expect(target.requests('/during')).toHaveLength(0);

    // While the server is down, the database (opened on its own) shows an hourly job whose due time is 3 hours old,
    // as after a longer outage.
    const { cron, lastDue, hour } = hourlyScheduleAwayFromNow();
    const offline = await openDatabase(config);
    const offlineDb = await SchedulerFixtures.connect(offline.url);
    const hourlyJob = await offlineDb.job(userId, { url: `${target.url}/hourly`, cron, nextRunAt: new Date(lastDue - 3 * hour), status: 'scheduled' });
    await offlineDb.close();
    await offline.close();
    await eventually(async () => Date.now() > downDue.getTime() + 1_000, 10_000, 'second instant passed during the outage');

    const second = await boot();
    try {
      await target.waitFor(() => target.requests('/during').length >= JOBS && target.requests('/hourly').length >= 1, 20_000);
      const runs = await eventually(async () => {
        const rows = await second.db.query(`SELECT r.job_id, r.trigger, r.status, r.scheduled_for, j.name FROM job_runs r JOIN jobs j ON j.id = r.job_id WHERE r.account_id = $1 AND r.state = 'done'`, [userId]);
        const bursts = rows.filter((r) => r.job_id !== hourlyJob).length;
        return bursts === 2 * JOBS && rows.some((r) => r.job_id === hourlyJob && r.status === 'success') ? rows : null;
      }, 15_000, 'every run recorded');
      await schedulerPassed(second.db, `${target.url}/sentinel`, 300);

      for (const name of ['before', 'during']) {
        const requests = target.requests(`/${name}`);
        expect(requests).toHaveLength(JOBS);
        expect(new Set(requests.map((r) => r.path)).size).toBe(JOBS);
      }
      const during = runs.filter((r) => r.name.startsWith('during-'));
      expect(during.every((r) => r.trigger === 'recovery' && r.status === 'success' && new Date(r.scheduled_for).getTime() === downDue.getTime())).toBe(true);
      expect(runs.filter((r) => r.name.startsWith('before-')).every((r) => r.trigger === 'schedule' && r.status === 'success')).toBe(true);
      const hourlyRuns = runs.filter((r) => r.job_id === hourlyJob).sort((a, b) => new Date(a.scheduled_for).getTime() - new Date(b.scheduled_for).getTime());
      // The latest due time fires; every earlier one is recorded as missed.
      expect(hourlyRuns.map((r) => new Date(r.scheduled_for).getTime())).toEqual([3, 2, 1, 0].map((hoursAgo) => lastDue - hoursAgo * hour));
      expect(hourlyRuns.slice(0, -1).every((r) => r.status === 'missed')).toBe(true);
      expect(hourlyRuns[hourlyRuns.length - 1]).toMatchObject({ trigger: 'recovery', status: 'success' });
      expect(target.requests('/hourly')).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});

/**
 * kill -9 of a server on the embedded database 50 ms after an instant, then
 * a restart on the same data directory. No other process can have owned its
 * runs, so the new process takes them all over at start: those never sent
 * (a group due 2 s after the instant) at once, those it may have sent as
 * their job's delivery says. The database lives inside the server process,
 * so jobs are written and runs read while no server runs. (Runs on the
 * embedded pass only: it does not depend on TEST_DATABASE_URL.)
 */
(onPostgres ? describe.skip : describe)('scheduler across kill -9 of a server on the embedded database', () => {
  const ON_WIRE = 200; // due at the instant, half of them at_most_once
  const LATER = 100; // due 2 s after the instant: claimed, never sent at the kill
  const ANSWER_MS = 400;
  const ORIGINS = 8;
  const targets: HttpTarget[] = [];
  let dataDir: string;
  let config: AppConfig;
  const env = () => ({ DATA_DIR: dataDir, SCHEDULER_ENABLED: 'true', ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER_IDLE_GC: 'false' });

  beforeAll(async () => {
    for (let i = 0; i < ORIGINS; i++) targets.push(await HttpTarget.start());
    for (const t of targets) t.on('/embedded', (_req, res) => setTimeout(() => res.writeHead(200).end('ok'), ANSWER_MS));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-embedded-kill-'));
    config = AppConfig.fromEnvironment({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  });
  /** Every server process a test here started: one a failed expectation left running is killed after the tests. */
  const processes: Array<Awaited<ReturnType<typeof startServerProcess>>> = [];
  const startServer = async () => {
    const started = await startServerProcess(env());
    processes.push(started);
    return started;
  };
  afterAll(async () => {
    for (const p of processes) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
      p.child.kill('SIGKILL');
      await p.exitCode();
    }
    for (const t of targets) await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Opens the data directory while no server runs. */
  async function offline<T>(work: (db: SchedulerFixtures) => Promise<T>): Promise<T> {
    const database = await openDatabase(config);
    const db = await SchedulerFixtures.connect(database.url);
    try {
      return await work(db);
    } finally {
      await db.close();
      await database.close();
    }
  }

  it('kill -9 50 ms after an instant and restart: never-sent runs fire at once, on-the-wire ones once more only for at_least_once jobs', async () => {
    const first = await startServer(); // migrates the new data directory
    first.child.kill('SIGTERM');
    await first.exitCode();

    const due = new Date(Date.now() + 12_000);
    const later = new Date(due.getTime() + 2_000);
    const urls = `{${targets.map((t) => t.url).join(',')}}`;
    const userId = await offline(async (db) => {
      const user = await db.user('unlimited');
      await db.query(
        `INSERT INTO jobs (account_id, name, url, cron_expression, status, next_run_at, delivery)
         SELECT $1, 'k-' || n, ($2::text[])[1 + n % ${ORIGINS}] || '/embedded?n=' || n, '0 0 1 1 *', 'scheduled',
                CASE WHEN n <= ${ON_WIRE} THEN $3::timestamptz ELSE $4::timestamptz END,
                CASE WHEN n <= ${ON_WIRE} AND n % 2 = 0 THEN 'at_most_once' ELSE 'at_least_once' END
         FROM generate_series(1, ${ON_WIRE + LATER}) AS n`,
        [user, urls, due, later],
      );
      return user;
    });

    const victim = await startServer();
    expect(Date.now()).toBeLessThan(due.getTime() - 3_500); // started before the burst's look-ahead: it claims it
    await new Promise((resolve) => setTimeout(resolve, due.getTime() + 50 - Date.now()));
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    await victim.exitCode();
    const restarted = await startServer();
    const readyAt = Date.now();
    const received = () => targets.flatMap((t) => t.requests('/embedded'));
    const name = (r: { path: string }) => r.path.split('=')[1];
    // What reached the target before the kill; the at_least_once ones among them are sent again by the takeover at start.
    const before = new Set(received().filter((r) => r.arrivedAt < killedAt + 100).map(name));
    const resendable = [...before].filter((n) => Number(n) % 2 === 1);
    await eventually(async () => {
      const seen = received().map(name);
      const laterDone = new Set(seen.filter((n) => Number(n) > ON_WIRE)).size === LATER;
      return laterDone && resendable.every((n) => seen.filter((m) => m === n).length >= 2);
    }, 20_000, 'the takeover after the restart delivered');
    // A graceful stop waits for requests in flight: anything the takeover sent (an at_most_once run, wrongly) has arrived by its end.
    restarted.child.kill('SIGTERM');
    await restarted.exitCode();

    const runs = await offline((db) =>
      db.query<{ n: string; delivery: string; status: string; error_message: string | null; possible_duplicate: boolean; id: string }>(
        `SELECT substr(j.name, 3) AS n, j.delivery, r.status, r.error_message, r.possible_duplicate, r.id
         FROM job_runs r JOIN jobs j ON j.id = r.job_id WHERE r.account_id = $1`,
        [userId],
      ),
    );
    const deliveries = new Map<string, number[]>();
    for (const r of received()) deliveries.set(name(r), [...(deliveries.get(name(r)) ?? []), r.arrivedAt]);
    const onTheWire = new Set([...deliveries].filter(([, at]) => at[0] < killedAt + 100).map(([n]) => n));
    const doubled = [...deliveries].filter(([, at]) => at.length > 1).map(([n]) => n);
    const laterJobs = [...deliveries].filter(([n]) => Number(n) > ON_WIRE);
    const afterRestart = laterJobs.map(([, at]) => at[0] - readyAt).sort((a, b) => a - b);
    const unknown = runs.filter((r) => r.error_message?.startsWith('Outcome unknown'));
    process.stdout.write(
      [
        '',
        `Chaos (embedded database, kill -9 50 ms after an instant of ${ON_WIRE} runs (${ON_WIRE / 2} at_most_once), ${LATER} more due 2 s later; restart ready ${((readyAt - killedAt) / 1000).toFixed(1)} s after the kill):`,
        `  on the wire at the kill ${onTheWire.size}; doubled ${doubled.length} (all on the wire: ${doubled.every((n) => onTheWire.has(n))}, none at_most_once: ${doubled.every((n) => Number(n) % 2 === 1)})`,
        `  recorded: ${runs.filter((r) => r.status === 'success').length} success, ${unknown.length} outcome unknown, ${runs.filter((r) => r.possible_duplicate).length} possible_duplicate`,
        `  never-sent runs after the restart: first ${(afterRestart[0] / 1000).toFixed(2)} s, last ${(afterRestart[afterRestart.length - 1] / 1000).toFixed(2)} s after it was ready`,
        '',
      ].join('\n'),
    );

    expect(runs).toHaveLength(ON_WIRE + LATER);
    for (const n of doubled) {
      expect(onTheWire.has(n)).toBe(true);
      expect(Number(n) % 2).toBe(1); // an at_least_once job
    }
    // The group due after the kill was never sent: each fires once, at once after the restart (not after a 60 s lease).
    expect(laterJobs).toHaveLength(LATER);
    expect(laterJobs.every(([, at]) => at.length === 1)).toBe(true);
    expect(afterRestart[afterRestart.length - 1]).toBeLessThan(5_000);
    // Sent again: at_least_once runs of the instant, marked so.
    expect(runs.filter((r) => r.possible_duplicate).every((r) => r.delivery === 'at_least_once' && Number(r.n) <= ON_WIRE)).toBe(true);
    for (const n of doubled) expect(runs.find((r) => r.n === n)?.possible_duplicate).toBe(true);
    // Every run recorded: success, or an at_most_once run of the instant recorded as unknown (never sent twice).
    for (const r of runs.filter((run) => run.status !== 'success')) {
      expect(r).toMatchObject({ status: 'failed', delivery: 'at_most_once', possible_duplicate: false });
      expect(unknown).toContainEqual(r);
      expect(deliveries.get(r.n)?.length ?? 0).toBeLessThanOrEqual(1);
    }
  });
});
