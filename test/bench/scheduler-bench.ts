/**
 * Scheduler benchmark: N jobs due at one instant (1,000 / 10,000 / 50,000)
 * for a process meeting its first instant (cold) and for one that has sent
 * three bursts before (warmed), two instances sharing the load, a steady
 * 1,000 due per second out of 100,000 jobs, 5,000 a second at instants
 * spread across each second (`steady5000`) or all at its start (`seconds5000`),
 * 1,000 jobs each firing every second on a six-field cron (`recurring`),
 * 10,000 one-off jobs (`run_at`) due at one instant (`oneoff`),
 * and 10,000 at once among 1,000,000 stored jobs (`million`); on the embedded
 * database and on PostgreSQL. Each row also says what an execution wrote
 * (rows and WAL bytes, bench-writes.ts). Lateness is measured at a local HTTP target against each job's
 * due instant; rows with a target (bench-targets.ts) say PASS or FAIL.
 *
 *   npm run bench -- [--db=embedded,postgres] [--scenarios=cold,1000,10000,50000,two,steady,steady5000,seconds5000,recurring,oneoff,million]
 *                    [--steady-seconds=60] [--pg=postgres://postgres@127.0.0.1:5432/test] [--per-second]
 *
 * `cold` runs cold-1000 and cold-10000 (each may be named alone). --per-second
 * also prints each due second's p50, p99 and max (to tell a few late seconds
 * from a uniformly slow release), and for one-instant scenarios the arrivals
 * per 25 ms, when the instant's claims committed (a slow start or a late
 * claim) and the instance's CPU time over the burst (which, unlike lateness,
 * other work on the cores barely changes).
 *
 * Only loopback is used; every wait is bounded.
 */
import * as os from 'node:os';
import { Arrivals, loadAverage, migrate, openDatabase, scenario } from './bench-scenarios';
import { BenchTarget } from './bench-target';
import { table, type LatenessSummary } from './bench-stats';
import { TARGETS, verdict } from './bench-targets';
import { describeWrites, type WritesPerExecution } from './bench-writes';

interface Options {
  dbs: string[];
  scenarios: string[];
  steadySeconds: number;
  pg: string;
  perSecond: boolean;
}

function options(): Options {
  const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=') ?? fallback;
  return {
    dbs: arg('db', 'embedded,postgres').split(','),
    scenarios: arg('scenarios', 'cold,1000,10000,50000,two,steady,recurring,oneoff').split(','),
    steadySeconds: Number(arg('steady-seconds', '60')),
    pg: arg('pg', process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'),
    perSecond: process.argv.includes('--per-second'),
  };
}

async function main(): Promise<void> {
  const opts = options();
  const arrivals = new Arrivals();
  const target = await BenchTarget.start((path, arrivedAt) => arrivals.record(path, arrivedAt));
  await target.warmUp();
  const started = Date.now();
  try {
    for (const kind of opts.dbs) {
      const db = await openDatabase(kind, opts.pg);
      await migrate(db);
      const rows: Array<Record<string, string | number>> = [];
      const writes: string[] = [];
      try {
        const add = (key: string, result: { row: Record<string, string | number>; summary: LatenessSummary; rssMb: number[]; writes: WritesPerExecution | null }) => {
          rows.push({
            ...result.row,
            'peak RSS': result.rssMb.map((m) => `${m} MB`).join(' + '),
            'rows/exec': result.writes ? result.writes.rows.toFixed(2) : '-',
            'WAL/exec': result.writes ? `${Math.round(result.writes.walBytes).toLocaleString('en')} B` : '-',
            target: verdict(TARGETS[key], result.summary, result.rssMb),
          });
          if (result.writes) writes.push(describeWrites(`${kind} ${String(result.row.scenario)}`, result.writes));
        };
        for (const s of opts.scenarios) {
          if (s.startsWith('cold')) {
            // Each cold row is a process of its own meeting its first instant.
            for (const jobs of s === 'cold' ? [1_000, 10_000] : [Number(s.slice(5))]) {
              add(`cold-${jobs}`, await scenario(db, target, arrivals, `${jobs.toLocaleString('en')} at once, cold`, { jobs, perSecond: jobs, instances: 1, cold: true }, opts.perSecond));
            }
          } else if (s === 'two') add(s, await scenario(db, target, arrivals, '10,000 at once, 2 instances', { jobs: 10_000, perSecond: 10_000, instances: 2 }));
          else if (s === 'steady')
            add(s, await scenario(db, target, arrivals, `steady 1,000/s of 100,000 for ${opts.steadySeconds} s`, { jobs: 100_000, perSecond: 1_000, instances: 1, seconds: opts.steadySeconds }, opts.perSecond));
          else if (s === 'steady5000' || s === 'seconds5000') {
            // steady5000: a steady rate, each second's 5,000 due at instants spread across it (a burst is the
            // 10,000-at-once scenarios' subject); seconds5000: the same 5,000 all due at each second's start.
            const jobs = 5_000 * opts.steadySeconds;
            const spread = s === 'steady5000';
            const label = spread ? `steady 5,000/s of ${jobs.toLocaleString('en')} for ${opts.steadySeconds} s` : `5,000 at each second's start, ${jobs.toLocaleString('en')} for ${opts.steadySeconds} s`;
            add(s, await scenario(db, target, arrivals, label, { jobs, perSecond: 5_000, instances: 1, seconds: opts.steadySeconds, spread }, opts.perSecond));
          } else if (s === 'recurring')
            add(s, await scenario(db, target, arrivals, `1,000 jobs every second for ${opts.steadySeconds} s`, { jobs: 1_000, perSecond: 1_000, instances: 1, seconds: opts.steadySeconds, recurring: true }, opts.perSecond));
          else if (s === 'oneoff') add(s, await scenario(db, target, arrivals, '10,000 one-off runs at once, warmed', { jobs: 10_000, perSecond: 10_000, instances: 1, oneOff: true }, opts.perSecond));
          else if (s === 'million')
            add(s, await scenario(db, target, arrivals, '10,000 at once of 1,000,000 stored, warmed', { jobs: 10_000, perSecond: 10_000, instances: 1, idleJobs: 990_000 }, opts.perSecond));
          else add(s, await scenario(db, target, arrivals, `${Number(s).toLocaleString('en')} at once, warmed`, { jobs: Number(s), perSecond: Number(s), instances: 1 }, opts.perSecond));
          process.stdout.write(`  done: ${kind} ${s} (load average ${loadAverage()})\n`);
        }
      } finally {
        await db.close();
      }
      const scope =
        kind === 'embedded'
          ? 'WAL is exact; the row counts may fall short: the one backend reports its statistics lazily'
          : 'WAL is the whole server\'s: other databases\' writes count too';
      if (writes.length > 0) process.stdout.write(`\nWrites (rows written = inserted + updated + deleted row versions; ${scope}):\n` + writes.join(''));
      process.stdout.write('\n' + table(`Scheduler benchmark, ${kind === 'embedded' ? 'embedded database (PGlite)' : 'PostgreSQL'} (${os.cpus().length} cores, load average ${loadAverage()})`, rows) + '\n');
    }
  } finally {
    await target.close();
  }
  process.stdout.write(`total ${(Date.now() - started) / 1000} s\n`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`bench failed: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
