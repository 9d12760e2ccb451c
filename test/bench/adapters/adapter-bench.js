/**
 * Nest's Express adapter against its Fastify adapter, each bare and with the
 * service's edge middleware, next to a plain node:http + pg server (bare, and
 * sending helmet's headers) answering
 * the same two routes (a ping, and a 20-row list of one user's jobs out of
 * 5,000). Measured in slices that alternate between the five servers, so a
 * busy machine moves them all alike; the ratio to the plain server is the
 * figure to read. See docs/adr/0166-http-layer-express-kept.md.
 *
 *   npm run bench:adapters [-- --pg=postgres://postgres@127.0.0.1:5432/test --slices=4 --seconds=3]
 */
const { fork } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=') ?? fallback;
const PG = arg('pg', process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const SLICES = Number(arg('slices', '4'));
const SECONDS = Number(arg('seconds', '3'));
const TABLE = `adapter_bench_jobs_${process.pid}`;
const SERVERS = [
  ['plain', 'bare'],
  ['plain', 'edge'],
  ['express', 'bare'],
  ['fastify', 'bare'],
  ['express', 'edge'],
  ['fastify', 'edge'],
];

function start(kind, edge) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'adapter-server.js'), [kind, edge, TABLE], { env: { ...process.env, PG } });
    const timer = setTimeout(() => reject(new Error(`${kind} ${edge} did not start within 30 s`)), 30_000);
    child.once('message', ({ port }) => (clearTimeout(timer), resolve({ child, port })));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${kind} ${edge} exited with ${code}`))));
  });
}

async function main() {
  const db = new Client(PG);
  await db.connect();
  const children = [];
  try {
    await db.query(`CREATE TABLE ${TABLE} (id serial PRIMARY KEY, user_id int, name text, url text, method text, headers jsonb, body text,
      cron_expression text, time_zone text, enabled boolean, created_at timestamptz DEFAULT now(), updated_at timestamptz DEFAULT now(), next_run_at timestamptz)`);
    await db.query(`INSERT INTO ${TABLE} (user_id, name, url, method, headers, body, cron_expression, time_zone, enabled, next_run_at)
      SELECT 1 + (i % 250), 'job ' || i, 'https://example.com/hook/' || i, 'POST', '{"x-a":"b"}', '{"a":1}', '*/5 * * * *', 'Europe/Berlin', true, now()
      FROM generate_series(1, 5000) i`);
    await db.query(`CREATE INDEX ON ${TABLE} (user_id, created_at)`);
    const servers = [];
    for (const [kind, edge] of SERVERS) {
      const { child, port } = await start(kind, edge);
      children.push(child);
      const plainName = edge === 'edge' ? 'plain node:http + pg, helmet' : 'plain node:http + pg';
      servers.push({ name: kind === 'plain' ? plainName : `Nest + ${kind}, ${edge === 'edge' ? 'helmet, cookies, compression' : 'bare'}`, port });
    }
    process.stdout.write(`Adapter benchmark: 32 connections, ${SLICES} slices of ${SECONDS} s per server and route, ${os.cpus().length} CPUs, Node ${process.version}\n\n`);
    for (const route of ['/api/ping', '/api/jobs']) {
      const rps = servers.map(() => 0);
      for (const server of servers) await autocannon({ url: `http://127.0.0.1:${server.port}${route}`, connections: 32, duration: 1 }); // warm-up
      for (let slice = 0; slice < SLICES; slice++) {
        for (const [i, server] of servers.entries()) {
          const result = await autocannon({ url: `http://127.0.0.1:${server.port}${route}`, connections: 32, duration: SECONDS, timeout: 10 });
          if (result.non2xx || result.errors || result.timeouts) throw new Error(`${server.name} ${route}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
          rps[i] += result.requests.average / SLICES;
        }
      }
      for (const [i, server] of servers.entries()) {
        process.stdout.write(`GET ${route.padEnd(10)} ${server.name.padEnd(42)} ${String(Math.round(rps[i])).padStart(7)} req/s  ${(rps[i] / rps[0]).toFixed(2)} of plain\n`);
      }
      process.stdout.write('\n');
    }
    process.stdout.write(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  } finally {
    for (const child of children) child.kill();
    await db.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await db.end();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
