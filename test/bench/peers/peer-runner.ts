/**
 * One peer of the scheduler benchmark, in a process of its own (started
 * fresh for each scenario, as Cronbeam's instances are): it schedules `jobs`
 * recurring jobs due at `dueAt` in BullMQ (job schedulers on Redis) or
 * pg-boss (schedules on PostgreSQL), runs a worker whose handler sends the
 * job's request to the benchmark's target, and cleans up on SIGTERM.
 *
 * Spec in PEER_SPEC (JSON). Stdout: `ready {"setupMs":…}` once scheduled and
 * working, `cleaned` after clean-up. Settings are each project's documented
 * ones for low latency (see docs/adr/0116-peer-benchmark.md).
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { Queue, Worker } from 'bullmq';
import { PgBoss } from 'pg-boss';

interface PeerSpec {
  peer: 'bullmq' | 'pgboss';
  jobs: number;
  /** Epoch ms; whole seconds for BullMQ, whole minutes for pg-boss. */
  dueAt: number;
  target: string;
  redis: string;
  /** A database of this run's own (the harness creates and drops it). */
  pg: string;
}

/** Requests in flight, and connections to the target: what Cronbeam's defaults are (512 in flight, 32 per origin). */
const IN_FLIGHT = 512;
const CONNECTIONS = 32;

const spec = JSON.parse(process.env.PEER_SPEC ?? '{}') as PeerSpec;
const agent = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 30_000 });

/** What each peer's handler does: the job's HTTP request, its body read to the end. */
async function fire(n: number): Promise<void> {
  const { body } = await request(`${spec.target}/b?n=${n}`, { dispatcher: agent, headers: { 'user-agent': 'cronbeam-bench-peer' } });
  await body.dump();
}

/** Runs `task` for 0..count-1, `parallel` at a time. */
async function each(count: number, parallel: number, task: (n: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: parallel }, lane));
}

async function bullmq(): Promise<() => Promise<void>> {
  const url = new URL(spec.redis);
  const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
  // A key prefix of this run's own: nothing else on the Redis is touched, and obliterate removes it all.
  const prefix = `cronbeam-bench-${randomBytes(4).toString('hex')}`;
  const queue = new Queue('bench', { connection, prefix });
  const due = new Date(spec.dueAt);
  // Six fields (with seconds), daily: it fires once within the run, at the instant.
  const pattern = `${due.getUTCSeconds()} ${due.getUTCMinutes()} ${due.getUTCHours()} * * *`;
  await each(spec.jobs, 50, (i) =>
    queue.upsertJobScheduler(`job-${i + 1}`, { pattern, tz: 'UTC' }, { name: 'request', data: { n: i + 1 }, opts: { removeOnComplete: true, removeOnFail: true } }),
  );
  const worker = new Worker<{ n: number }>('bench', (job) => fire(job.data.n), { connection, prefix, concurrency: IN_FLIGHT });
  worker.on('error', (error) => console.error(`bullmq worker: ${error.message}`));
  await worker.waitUntilReady();
  return async () => {
    await worker.close(true);
    await queue.obliterate({ force: true });
    await queue.close();
  };
}

async function pgboss(): Promise<() => Promise<void>> {
  const boss = new PgBoss({
    connectionString: spec.pg,
    schema: 'pgboss_bench',
    // The cron pass and its worker at their shortest allowed intervals (1 s; defaults 30 s and 5 s).
    cronMonitorIntervalSeconds: 1,
    cronWorkerIntervalSeconds: 1,
    // Workers woken by NOTIFY when jobs are created, instead of waiting for their poll.
    useListenNotify: true,
    max: 10,
  });
  boss.on('error', (error: Error) => console.error(`pg-boss: ${error.message}`));
  await boss.start();
  await boss.createQueue('bench', { notify: true });
  const due = new Date(spec.dueAt);
  // Five fields: pg-boss schedules at minute granularity. Daily, so it fires once within the run.
  const cron = `${due.getUTCMinutes()} ${due.getUTCHours()} * * *`;
  await each(spec.jobs, 10, (i) => boss.schedule('bench', cron, { n: i + 1 }, { tz: 'UTC', key: `job-${i + 1}` }));
  // 4 workers × batches of 128 = 512 in flight; a full batch fetches the next one at once; 0.5 s is the shortest poll.
  await boss.work<{ n: number }>('bench', { batchSize: 128, localConcurrency: 4, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true }, async (jobs) => {
    await Promise.all(jobs.map((job) => fire(job.data.n)));
  });
  return async () => {
    await boss.stop({ graceful: false, close: true });
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const cleanUp = spec.peer === 'bullmq' ? await bullmq() : await pgboss();
  process.stdout.write(`ready ${JSON.stringify({ setupMs: Math.round(performance.now() - started) })}\n`);
  process.once('SIGTERM', () => {
    void cleanUp()
      .catch((error: Error) => console.error(`clean-up failed: ${error.message}`))
      .finally(async () => {
        await agent.close();
        process.stdout.write('cleaned\n');
        process.exit(0);
      });
  });
}

main().catch((error: Error) => {
  console.error(`peer failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
