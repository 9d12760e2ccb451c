/**
 * Cronbeam beside its peers, in one run and one table: the same jobs due at
 * one instant, the same target (a keep-alive responder that timestamps each
 * request as it arrives), each system in a process started fresh for the
 * scenario. Cronbeam: the `cold` scenario of `npm run bench` (a new backend
 * process, its first instant). BullMQ: job schedulers on Redis. pg-boss:
 * schedules on PostgreSQL (minute granularity: its instant is a whole minute).
 *
 *   npm run bench:peers -- [--jobs=1000,10000] [--peers=cronbeam,bullmq,pgboss]
 *                          [--pg=postgres://postgres@127.0.0.1:5432/test] [--redis=redis://127.0.0.1:6379]
 *
 * Settings and resolution of each peer: docs/adr/0116-peer-benchmark.md.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Arrivals, benchLogFile, loadAverage, migrate, openDatabase, scenario, waitFor, type BenchDatabase } from '../bench-scenarios';
import { summarise, table, latenessRow, type LatenessSummary } from '../bench-stats';
import { BenchTarget } from '../bench-target';
import { TARGETS, verdict } from '../bench-targets';

const ROOT = path.resolve(__dirname, '../../..');

interface Options {
  jobs: number[];
  peers: string[];
  pg: string;
  redis: string;
}

function options(): Options {
  const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=') ?? fallback;
  return {
    jobs: arg('jobs', '1000,10000').split(',').map(Number),
    peers: arg('peers', 'cronbeam,bullmq,pgboss').split(','),
    pg: arg('pg', process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'),
    redis: arg('redis', 'redis://127.0.0.1:6379'),
  };
}

interface Result {
  summary: LatenessSummary;
  rssMb: number;
  note: string;
}

const NAMES: Record<string, string> = { cronbeam: 'Cronbeam (cold)', bullmq: 'BullMQ job schedulers', pgboss: 'pg-boss schedules' };

async function cronbeam(jobs: number, target: BenchTarget, arrivals: Arrivals, opts: Options): Promise<Result> {
  const db = await openDatabase('postgres', opts.pg);
  try {
    await migrate(db);
    const result = await scenario(db, target, arrivals, 'cronbeam', { jobs, perSecond: jobs, instances: 1, cold: true });
    return { summary: result.summary, rssMb: result.rssMb[0], note: verdict(TARGETS[`cold-${jobs}`], result.summary, result.rssMb) };
  } finally {
    await db.close();
  }
}

/**
 * Time the peer's set-up (writing its schedules) is given before the instant:
 * measured on the 2-core machine with room to spare, because a set-up that
 * ended after its instant would make the peer look late for the wrong reason
 * (the row then says so).
 */
function setUpAllowanceMs(peer: string, jobs: number): number {
  // pg-boss writes one schedule per round trip: 10,000 took 88-182 s on the 2-core machine under load.
  return peer === 'bullmq' ? 4_000 + jobs : 30_000 + jobs * 25;
}

/**
 * How long after the instant the harness waits for every request. pg-boss
 * turns due schedules into jobs 50 per pass of its cron worker, at most one
 * pass a second (both fixed in its timekeeper), so N schedules due at one
 * minute take about N / 50 seconds to become jobs at all (slower under
 * load: 18 a second at load average 12).
 */
function deliveryAllowanceMs(peer: string, jobs: number): number {
  return peer === 'pgboss' ? 60_000 + jobs * 40 : 60_000;
}

async function peer(name: 'bullmq' | 'pgboss', jobs: number, target: BenchTarget, arrivals: Arrivals, opts: Options): Promise<Result> {
  let db: BenchDatabase | null = null;
  if (name === 'pgboss') db = await openDatabase('postgres', opts.pg);
  const unit = name === 'pgboss' ? 60_000 : 1_000; // pg-boss schedules name minutes, BullMQ's patterns seconds
  const dueAt = Math.ceil((Date.now() + setUpAllowanceMs(name, jobs)) / unit) * unit;
  arrivals.byJob = new Map();
  const byJob = arrivals.byJob;
  const log = fs.openSync(benchLogFile(), 'a');
  const spec = { peer: name, jobs, dueAt, target: target.url, redis: opts.redis, pg: db?.url ?? '' };
  const child = spawn(process.execPath, ['-r', '@swc-node/register', path.join(__dirname, 'peer-runner.ts')], {
    cwd: ROOT,
    env: { ...process.env, PEER_SPEC: JSON.stringify(spec) },
    stdio: ['ignore', 'pipe', log],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready: number | null = null;
  let setupMs = NaN;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.startsWith('ready ')) return;
    ready = Date.now();
    setupMs = (JSON.parse(line.slice(6)) as { setupMs: number }).setupMs;
  });
  try {
    await waitFor(() => ready !== null || child.exitCode !== null, dueAt + 60_000);
    if (ready === null) throw new Error(`${name} did not get ready (see ${benchLogFile()})`);
    await waitFor(() => byJob.size >= jobs || child.exitCode !== null, dueAt + deliveryAllowanceMs(name, jobs));
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // anything fired twice arrives by now
    const summary = summarise(byJob, () => dueAt, jobs);
    const late = ready > dueAt ? `; set-up ended ${ready - dueAt} ms after the instant` : '';
    return { summary, rssMb: peakRssMb(child.pid), note: `set-up ${(setupMs / 1000).toFixed(1)} s${late}` };
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
    await db?.close();
  }
}

function peakRssMb(pid: number | undefined): number {
  try {
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  const opts = options();
  const arrivals = new Arrivals();
  const target = await BenchTarget.start((p, arrivedAt) => arrivals.record(p, arrivedAt));
  await target.warmUp();
  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const jobs of opts.jobs) {
      for (const name of opts.peers) {
        const result = name === 'cronbeam' ? await cronbeam(jobs, target, arrivals, opts) : await peer(name as 'bullmq' | 'pgboss', jobs, target, arrivals, opts);
        const { scenario: _label, p95: _p95, ...figures } = latenessRow('', result.summary);
        rows.push({ system: NAMES[name] ?? name, jobs: jobs.toLocaleString('en'), ...figures, 'peak RSS': `${result.rssMb} MB`, note: result.note });
        process.stdout.write(`  done: ${name} ${jobs} (load average ${loadAverage()})\n`);
      }
    }
  } finally {
    await target.close();
  }
  process.stdout.write('\n' + table(`Cronbeam and peers, jobs due at one instant, each in a fresh process (${os.cpus().length} cores, load average ${loadAverage()})`, rows));
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`bench:peers failed: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
