/**
 * The scheduler benchmark's scenarios, shared by `npm run bench` and
 * `npm run bench:peers`: a database of its own, backend processes started
 * as `npm start` starts them, jobs written straight into the database, and
 * every request's arrival at the target measured against its due instant.
 */
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from '../../backend/src/database/embedded-postgres';
import { BenchInstance } from './bench-instance';
import type { BenchTarget } from './bench-target';
import { latenessRow, summarise, table, type LatenessSummary } from './bench-stats';
import { perExecution, readCounters, settledCounters, type WritesPerExecution } from './bench-writes';

/**
 * Scheduler settings for the benchmark: the defaults (3 s look-ahead, 512
 * requests in flight, 32 connections per origin), except a 1 s safety poll,
 * because the benchmark writes its jobs straight into the database and so
 * skips the wake-up the API sends.
 */
export const INSTANCE_ENV = {
  ALLOW_PRIVATE_TARGETS: 'true',
  SCHEDULER_POLL_INTERVAL_MS: '1000',
  DATABASE_POOL_SIZE: '10',
};

export interface BenchDatabase {
  url: string;
  close(): Promise<void>;
}

export async function openDatabase(kind: string, pgUrl: string): Promise<BenchDatabase> {
  if (kind === 'embedded') {
    const embedded = await EmbeddedPostgres.start('memory://', 40);
    return { url: embedded.url, close: () => embedded.stop() };
  }
  const name = `cronbeam_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    close: async () => {
      const c = new Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Arrivals at the target per job number (/b?n=<job>), kept as they come so waiting costs nothing. */
export class Arrivals {
  byJob = new Map<number, number[]>();

  record(path: string, arrivedAt: number): void {
    if (!path.startsWith('/b?n=')) return; // warm-up requests
    const n = Number(path.slice(5));
    const list = this.byJob.get(n);
    if (list) list.push(arrivedAt);
    else this.byJob.set(n, [arrivedAt]);
  }
}

/**
 * Bursts of 1,000 requests at 8, 7 and 6 s before the measured instant: a
 * running service (and the target) has its hot code compiled by V8, which a
 * process started seconds earlier has not; the first few thousand requests of
 * a new process run several times slower.
 */
const WARM_UP_LEADS_MS = [8_000, 7_000, 6_000];
const WARM_UP_JOBS = 1_000;

/**
 * Cold scenario: the instant falls this long (plus the insert time) after the
 * new process answered ready: the 3 s look-ahead plus a second, so the claim
 * can start on time, as it does for jobs already stored when a deploy starts.
 */
const COLD_LEAD_MS = 4_000;

/**
 * A scenario's jobs: each fires once (a yearly cron), every second (a
 * six-field cron, the `recurring` scenario), or once at its `run_at` instant
 * (a one-off job, the `oneoff` scenario).
 */
type ScheduleForm = 'yearly' | 'every-second' | 'one-off';
const CRON_OF: Record<ScheduleForm, string | null> = { yearly: '0 0 1 1 *', 'every-second': '* * * * * *', 'one-off': null };

/**
 * When job n (from 1) of a scenario is due: the second floor((n-1)/perSecond)
 * after `firstDue`, at its start (`spread` false: each second's jobs share one
 * instant, as cron's whole minutes do) or at its own millisecond, the second's
 * jobs spread evenly across it (a steady rate, as from many schedules).
 */
function dueOfJob(firstDue: number, perSecond: number, spread: boolean): (n: number) => number {
  return spread ? (n) => firstDue + Math.floor(((n - 1) * 1000) / perSecond) : (n) => firstDue + Math.floor((n - 1) / perSecond) * 1000;
}

async function insertJobs(sql: Client, userId: string, url: string, count: number, firstDue: number, perSecond: number, form: ScheduleForm = 'yearly', spread = false): Promise<void> {
  // The same instants as dueOfJob, computed by the database.
  const offsetMs = spread ? '((n - 1) * 1000) / $5' : '((n - 1) / $5) * 1000';
  await sql.query(
    `INSERT INTO jobs (account_id, name, url, cron_expression, run_at, status, next_run_at)
     SELECT $1, 'bench-' || $2 || n, $2 || '?n=' || n, $6, CASE WHEN $6::text IS NULL THEN due END, 'scheduled', due
     FROM generate_series(1, $4::int) AS n, LATERAL (SELECT to_timestamp(($3::bigint + ${offsetMs}) / 1000.0) AS due) AS d`,
    [userId, url, firstDue, count, perSecond, CRON_OF[form]],
  );
}

/**
 * A recurring scenario's arrivals re-keyed by execution: arrival t of job n
 * belongs to the latest due second not after it, k = floor((t - firstDue) / 1 s)
 * (nothing fires early, so a run less than a second late lands in its own
 * second). Key (n - 1) * seconds + k + 1, so `summarise` counts a second
 * without an arrival as missed and a second with two as doubled; a run more
 * than a second late shows as both, which fails the target as it should.
 * Arrivals after the window are dropped.
 */
function byExecution(byJob: Map<number, number[]>, firstDue: number, seconds: number): Map<number, number[]> {
  const executions = new Map<number, number[]>();
  for (const [n, times] of byJob) {
    for (const t of times) {
      const k = Math.max(0, Math.floor((t - firstDue) / 1000));
      if (k >= seconds) continue;
      const key = (n - 1) * seconds + k + 1;
      const list = executions.get(key);
      if (list) list.push(t);
      else executions.set(key, [t]);
    }
  }
  return executions;
}

/** Idle jobs a hosted service holds: next due a year ahead, IDLE_JOBS_PER_USER to each of their own users. */
const IDLE_JOBS_PER_USER = 100;

/**
 * Stores `count` idle jobs in two statements (users, then jobs, each one
 * generate_series INSERT): a million take tens of seconds, not the hours
 * single inserts would. Statistics are refreshed after, as autovacuum would.
 */
export async function seedIdleJobs(sql: Client, count: number): Promise<void> {
  const users = Math.ceil(count / IDLE_JOBS_PER_USER);
  const tag = randomBytes(4).toString('hex');
  await sql.query(
    `WITH u AS (INSERT INTO users (email, name) SELECT 'idle-' || $1 || '-' || n || '@example.test', 'Idle' FROM generate_series(1, $2::int) AS n RETURNING id, name)
     INSERT INTO accounts (id, name, personal, plan) SELECT id, name, true, 'unlimited' FROM u`,
    [tag, users],
  );
  await sql.query(
    `WITH u AS (SELECT array_agg(id ORDER BY id) AS ids FROM users WHERE email LIKE 'idle-' || $1 || '-%')
     INSERT INTO jobs (account_id, name, url, cron_expression, status, next_run_at)
     SELECT u.ids[1 + (n - 1) / $3], 'idle-' || n, 'https://example.com/idle?n=' || n, '0 0 1 1 *', 'scheduled', now() + interval '365 days'
     FROM u, generate_series(1, $2::int) AS n`,
    [tag, count, IDLE_JOBS_PER_USER],
  );
  await sql.query(`VACUUM ANALYZE jobs`);
  // The insert leaves ~1 GB of dirty pages; a checkpoint writes them now rather than during the measurement
  // (refused without the privilege: then the first seconds measured share the disk with it).
  await sql.query(`CHECKPOINT`).catch(() => undefined);
}

export async function waitFor(test: () => boolean, deadline: number): Promise<void> {
  while (!test() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

export async function scenario(
  db: BenchDatabase,
  target: BenchTarget,
  arrivals: Arrivals,
  label: string,
  spec: {
    jobs: number;
    perSecond: number;
    instances: number;
    seconds?: number;
    cold?: boolean;
    idleJobs?: number;
    /** Every job fires every second of the window (a six-field cron), rather than each job once. */
    recurring?: boolean;
    /** Each job is a one-off run at its instant (`run_at`) rather than a yearly cron. */
    oneOff?: boolean;
    /** Each second's jobs are due at instants spread evenly across it rather than all at its start. */
    spread?: boolean;
  },
  printSeconds = false,
): Promise<{ row: Record<string, string | number>; summary: LatenessSummary; rssMb: number[]; writes: WritesPerExecution | null }> {
  const logFile = benchLogFile();
  const sql = new Client({ connectionString: db.url });
  await sql.connect();
  await sql.query(`TRUNCATE job_runs, jobs CASCADE`);
  if (spec.idleJobs) {
    const seeding = Date.now();
    await seedIdleJobs(sql, spec.idleJobs);
    process.stdout.write(`  ${label}: ${spec.idleJobs.toLocaleString('en')} idle jobs stored in ${((Date.now() - seeding) / 1000).toFixed(1)} s\n`);
  }
  const instances: BenchInstance[] = [];
  for (let i = 0; i < spec.instances; i++) instances.push(await BenchInstance.start(db.url, INSTANCE_ENV, logFile));
  try {
    const [{ id: userId }] = (
      await sql.query(
        `WITH u AS (INSERT INTO users (email, name) VALUES ($1, 'Bench') RETURNING id, name), a AS (INSERT INTO accounts (id, name, personal, plan) SELECT id, name, true, 'unlimited' FROM u) SELECT id FROM u`,
        [`bench-${randomBytes(4).toString('hex')}@example.test`])
    ).rows;
    arrivals.byJob = new Map();
    const byJob = arrivals.byJob;
    const inserting = Date.now();
    // Warmed: due far enough ahead that the warm-up bursts, inserting and claiming (3 s look-ahead) fit before it.
    // Cold: the first instant the new process meets, as soon after its start as the look-ahead allows.
    const firstDue = Math.ceil((inserting + (spec.cold ? COLD_LEAD_MS : 11_000) + spec.jobs / 10) / 1000) * 1000;
    if (!spec.cold) for (const lead of WARM_UP_LEADS_MS) await insertJobs(sql, userId, `${target.url}/warm-up-${lead}`, WARM_UP_JOBS, firstDue - lead, WARM_UP_JOBS);
    await insertJobs(sql, userId, `${target.url}/b`, spec.jobs, firstDue, spec.perSecond, spec.recurring ? 'every-second' : spec.oneOff ? 'one-off' : 'yearly', spec.spread);
    // Everything written from here on is the scheduler's (warm-up bursts included: they are counted as executions too).
    const before = await readCounters(sql);
    const windowSeconds = spec.seconds ?? 1;
    const expected = spec.recurring ? spec.jobs * windowSeconds : Math.min(spec.jobs, spec.perSecond * windowSeconds);
    const lastDue = firstDue + (windowSeconds - 1) * 1000;
    // The instance's CPU time over the first instant's burst: unlike lateness, it barely moves when other work
    // shares the cores, so it compares a cold burst with a warmed one on a busy machine too.
    const cpu = printSeconds && windowSeconds === 1 ? sampleCpu(instances, firstDue - 50, () => byJob.size >= expected, lastDue + 60_000) : null;
    // Recurring: done once every job has arrived for the window's last second (or later); otherwise once each job has.
    const arrivedAll = spec.recurring
      ? () => byJob.size >= spec.jobs && [...byJob.values()].every((times) => times[times.length - 1]! >= lastDue)
      : () => byJob.size >= expected;
    // A recurring scenario's instances' CPU from its first instant until then, as a share of one core.
    const windowCpu = spec.recurring ? sampleCpu(instances, firstDue, arrivedAll, lastDue + 60_000) : null;
    await waitFor(arrivedAll, lastDue + 60_000);
    const windowCpuMs = await windowCpu;
    if (windowCpuMs !== null) {
      const share = (100 * windowCpuMs) / (Date.now() - firstDue);
      process.stdout.write(`  ${label}: CPU of the instance(s) over the window: ${share.toFixed(0)} % of one core\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // anything fired twice (or a second late) arrives by now
    let executions = byJob;
    let dueOf = dueOfJob(firstDue, spec.perSecond, spec.spread === true);
    if (spec.recurring) {
      executions = byExecution(byJob, firstDue, windowSeconds);
      dueOf = (key: number) => firstDue + ((key - 1) % windowSeconds) * 1000;
    } else for (const n of [...byJob.keys()]) if (Math.floor((n - 1) / spec.perSecond) >= windowSeconds) byJob.delete(n);
    const summary = summarise(executions, dueOf, expected);
    if (printSeconds) {
      process.stdout.write(windowSeconds === 1 ? burstTimeline(label, executions, firstDue) : secondsTable(label, executions, dueOf));
      // When the claim of the first instant ended (created_at of its last run row): a claim ending late makes the whole burst late.
      const claim = await sql.query(`SELECT extract(epoch FROM min(created_at)) * 1000 AS first, extract(epoch FROM max(created_at)) * 1000 AS last FROM job_runs WHERE scheduled_for = to_timestamp($1 / 1000.0)`, [firstDue]);
      const { first, last } = claim.rows[0] as { first: string | null; last: string | null };
      const burstCpu = await cpu;
      if (burstCpu !== null) process.stdout.write(`  ${label}: CPU time of the instance(s) from 50 ms before the instant to the last arrival: ${burstCpu} ms\n`);
      if (first && last) process.stdout.write(`  ${label}: claims of the first instant committed from ${(Number(first) - firstDue).toFixed(0)} to ${(Number(last) - firstDue).toFixed(0)} ms relative to it\n`);
    }
    const died = instances.filter((i) => i.exitedEarly).map((i) => i.exitedEarly);
    if (died.length > 0) process.stdout.write(`  ${label}: instance(s) ended during the run (${died.join(', ')})\n`);
    const rssMb = instances.map((i) => i.peakRssMb());
    // Stopped instances have reported every count of theirs (a backend reports at exit), so the reading is complete.
    for (const instance of instances) await instance.stop();
    const after = await settledCounters(sql);
    const [{ n: executed }] = (await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM job_runs WHERE executed_at IS NOT NULL AND status IN ('success', 'failed')`)).rows;
    const writes = Number(executed) > 0 ? perExecution(before, after, Number(executed), {}) : null;
    return { row: latenessRow(label, summary), summary, rssMb, writes };
  } finally {
    for (const instance of instances) await instance.stop();
    await sql.end();
  }
}

/** Arrivals of a one-instant burst per 25 ms after the instant: a slow start (cold code) or a late claim shows here. */
export function burstTimeline(label: string, byJob: Map<number, number[]>, due: number): string {
  const SLICE_MS = 25;
  const counts: number[] = [];
  for (const times of byJob.values()) {
    for (const t of times) {
      const slice = Math.max(0, Math.floor((t - due) / SLICE_MS));
      while (counts.length <= slice) counts.push(0);
      counts[slice]++;
    }
  }
  const rows = counts.map((count, i) => ({ from: `${i * SLICE_MS} ms`, arrived: count }));
  return table(`${label}: arrivals per ${SLICE_MS} ms after the instant`, rows);
}

/** One row per second the jobs are due in: its own lateness percentiles. */
function secondsTable(label: string, byJob: Map<number, number[]>, dueOf: (job: number) => number): string {
  const bySecond = new Map<number, Map<number, number[]>>();
  for (const [job, times] of byJob) {
    const due = Math.floor(dueOf(job) / 1000) * 1000;
    const second = bySecond.get(due) ?? new Map<number, number[]>();
    second.set(job, times);
    bySecond.set(due, second);
  }
  const rows = [...bySecond.keys()]
    .sort((a, b) => a - b)
    .map((due) => {
      const s = summarise(bySecond.get(due)!, dueOf, bySecond.get(due)!.size);
      return { due: new Date(due).toISOString().slice(11, 19), p50: s.p50.toFixed(1), p99: s.p99.toFixed(1), max: s.max.toFixed(1) };
    });
  return table(`${label}: lateness per due second (ms)`, rows);
}

/** The 1-minute load average: figures taken while other work shares the cores are not comparable. */
export function loadAverage(): string {
  return os.loadavg()[0].toFixed(2);
}

/**
 * CPU time (user + system, ms) the instances spend from `from` until `done()`
 * holds, read from /proc every 10 ms; null where /proc is missing.
 */
async function sampleCpu(instances: BenchInstance[], from: number, done: () => boolean, deadline: number): Promise<number | null> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, from - Date.now())));
  const total = () => instances.reduce((sum, i) => sum + i.cpuMs(), 0);
  const start = total();
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  const end = total();
  return Number.isFinite(start) && Number.isFinite(end) ? end - start : null;
}

/** Starts one instance with the scheduler off, so the migrations have run before any scenario. */
export async function migrate(db: BenchDatabase): Promise<void> {
  await (await BenchInstance.start(db.url, { ...INSTANCE_ENV, SCHEDULER_ENABLED: 'false' }, benchLogFile())).stop();
}

/** Where the instances' output goes. */
export function benchLogFile(): string {
  return path.join(os.tmpdir(), `cronbeam-bench-${process.pid}.log`);
}
