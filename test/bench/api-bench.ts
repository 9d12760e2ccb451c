/**
 * REST API benchmark: the built service (dist/, `npm run build:backend` first)
 * on PostgreSQL, loaded by autocannon, next to a plain node:http + pg server
 * doing the same work (the same statement and answer: ping, list, one job, a
 * plain insert) in the same run; the ratio to it is the figure that survives
 * a busy machine, printed against the targets (ping 0.5, GET /api/jobs 0.8,
 * GET /prog/jobs 0.7, POST /api/jobs 0.5).
 *
 *   npm run bench:api -- [--pg=postgres://postgres@127.0.0.1:5432/test] [--duration=10] [--connections=32]
 *                        [--only=ping,list,...] [--stored-jobs=1000000]
 *
 * `stored` (last, with --only=stored or by default) fills the table with
 * --stored-jobs idle jobs of other users, then measures the list route of the
 * user's own jobs again: it must stay within 10% of its figure on the
 * table before them, as the user's index keeps it independent of the rest.
 *
 * A fresh database is created and dropped; every wait is bounded; loopback only.
 * BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of the service (see bench-instance.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createRequire } from 'node:module';
import { Client } from 'pg';
import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';
import { JOB_COLUMNS } from '../../backend/src/modules/jobs/jobs.repository';
import { BenchInstance } from './bench-instance';
import { openDatabase, seedIdleJobs } from './bench-scenarios';

/** The part of autocannon's programmatic interface used here (the package ships no types). */
interface LoadOptions {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  idReplacement?: boolean;
  requests?: Array<{ setupRequest: (req: Record<string, unknown>) => Record<string, unknown> }>;
}
interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = createRequire(__filename)('autocannon') as (options: LoadOptions) => Promise<LoadResult>;

interface Options {
  pg: string;
  duration: number;
  connections: number;
  only: string[] | null;
  storedJobs: number;
}

function options(): Options {
  const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=') ?? fallback;
  const only = arg('only', '');
  return {
    pg: arg('pg', process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'),
    duration: Number(arg('duration', '10')),
    connections: Number(arg('connections', '32')),
    only: only ? only.split(',') : null,
    storedJobs: Number(arg('stored-jobs', '1000000')),
  };
}

const JOB_DEFINITION = { url: 'https://example.com/hook', cron_expression: '0 0 1 1 *', method: 'GET' };
const LISTED_JOBS = 20;
/** The user's own jobs in the stored-jobs scenario. */
const STORED_LISTED_JOBS = 50;
const BULK_BATCH = 1_000;
const BULK_BATCHES = 10;
/** The import takes at most 500 jobs a request (IMPORT_LIMITS.maxJobs), so 10,000 jobs are 20 imports. */
const IMPORT_BATCH = 500;
const IMPORT_BATCHES = 20;
/** Each scenario runs in this many slices, alternating with the plain server. */
const SLICES = 4;

async function call(base: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

interface Account {
  userId: string;
  token: string;
  apiKey: string;
}

/** A verified, signed-in account on the unlimited plan with an API key, through the real HTTP flow (the code comes from the dev outbox). */
async function account(base: string, sql: Client): Promise<Account> {
  const email = `bench-${randomBytes(5).toString('hex')}@example.test`;
  const password = `Pw-${randomBytes(9).toString('base64url')}`;
  const signup = await call(base, 'POST', '/api/auth/signup', { name: 'Bench', email, password });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}`);
  const outbox = await call(base, 'GET', '/api/dev/outbox');
  const mail = (outbox.body as Array<{ to: string; text: string }>).find((m) => m.to === email);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error('no verification code in the dev outbox');
  if ((await call(base, 'POST', '/api/auth/verify', { email, code })).status !== 200) throw new Error('verify failed');
  const login = await call(base, 'POST', '/api/auth/login', { email, password });
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  await sql.query(`UPDATE accounts SET plan = 'unlimited' WHERE id = $1`, [signup.body.user_id]);
  const key = await call(base, 'POST', '/api/api-keys/generate', { name: 'bench' }, { authorization: `Bearer ${login.body.access_token}` });
  if (key.status !== 200) throw new Error(`API key answered ${key.status}`);
  return { userId: signup.body.user_id, token: login.body.access_token, apiKey: key.body.api_key };
}

/**
 * The plain baseline: node:http + pg, no framework, doing each measured route's
 * own work: the same statements (the jobs' columns, the account's filter, the
 * tag parameter) and the same answer, field by field as the API's job view
 * (checked equal before anything is measured). The jobs have no headers (stored
 * as '{}'), so neither side decrypts anything.
 */
const BASELINE_SOURCE = `
const http = require('node:http');
const { Pool } = require('pg');
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const account = process.env.BENCH_ACCOUNT_ID;
const defaultRetry = JSON.parse(process.env.BENCH_DEFAULT_RETRY);
const columns = process.env.BENCH_JOB_COLUMNS;
const iso = (d) => (d ? d.toISOString() : null);
const view = (j) => ({ job_id: j.id, name: j.name, url: j.url, method: j.method, headers: JSON.parse(j.headers), body: j.body,
  cron_expression: j.cron_expression, time_zone: j.time_zone, every_seconds: j.every_seconds, run_at: iso(j.run_at),
  starts_at: iso(j.starts_at), ends_at: iso(j.ends_at), jitter_seconds: j.jitter_seconds, overlap: j.overlap, catch_up: j.catch_up,
  catch_up_window_seconds: j.catch_up_window_seconds, response_rules: j.response_rules,
  timeout_seconds: j.timeout_ms === null ? null : j.timeout_ms / 1000, auto_pause_after: j.auto_pause_after,
  alert_after_failures: j.alert_after_failures, certificate_alert_days: j.certificate_alert_days, delivery: j.delivery, tags: j.tags,
  retry: j.retry_policy ?? defaultRetry, identity_token: j.identity_token, callback_url: j.callback_url, status: j.status,
  notify_on_failure: j.notify_on_failure, certificate_expires_at: iso(j.certificate_expires_at), next_run_at: iso(j.next_run_at),
  last_run_at: iso(j.last_run_at), created_at: j.created_at.toISOString(), updated_at: j.updated_at.toISOString() });
const answer = (res, value) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)); };
const bodyOf = (req) => new Promise((resolve, reject) => { const parts = []; req.on('data', (c) => parts.push(c)); req.on('end', () => resolve(Buffer.concat(parts).toString())); req.on('error', reject); });
const server = http.createServer(async (req, res) => {
  try {
    if (req.url === '/ping') return answer(res, { message: 'pong' });
    if (req.url === '/jobs' && req.method === 'GET') {
      const { rows } = await pool.query('SELECT ' + columns + ' FROM jobs WHERE account_id = $1 AND ($2::text IS NULL OR tags @> ARRAY[$2::text]) ORDER BY created_at, id', [account, null]);
      return answer(res, rows.map(view));
    }
    if (req.url.startsWith('/jobs/') && req.method === 'GET') {
      const { rows } = await pool.query('SELECT ' + columns + ' FROM jobs WHERE id = $1 AND account_id = $2', [req.url.slice(6), account]);
      return answer(res, view(rows[0]));
    }
    if (req.url === '/jobs' && req.method === 'POST') {
      const job = JSON.parse(await bodyOf(req));
      const { rows } = await pool.query(
        "INSERT INTO jobs (account_id, name, url, method, cron_expression, status, next_run_at) VALUES ($1, $2, $3, $4, $5, 'active', $6) RETURNING " + columns,
        [process.env.BENCH_WRITER_ID, job.name, job.url, job.method, job.cron_expression, new Date(Date.now() + 86400000)]);
      return answer(res, view(rows[0]));
    }
    res.writeHead(404); res.end();
  } catch (e) { res.writeHead(500); res.end(String(e)); }
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

async function startBaseline(databaseUrl: string, accountId: string, writerId: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', BASELINE_SOURCE], {
    cwd: path.resolve(__dirname, '../..'),
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      BENCH_ACCOUNT_ID: accountId,
      BENCH_WRITER_ID: writerId,
      BENCH_JOB_COLUMNS: JOB_COLUMNS,
      BENCH_DEFAULT_RETRY: JSON.stringify(DEFAULT_RETRY_POLICY),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('baseline did not start within 10 s')), 10_000);
    child.stdout!.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve(chunk.toString().trim());
    });
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/**
 * The plain server must do the work the service does, or the ratio means
 * nothing: its list and its job are checked equal to the API's before any
 * load (same jobs, same fields, same values).
 */
async function sameAnswers(base: string, plainUrl: string, bearer: Record<string, string>, jobId: string): Promise<void> {
  for (const [ours, theirs] of [
    ['/api/jobs', '/jobs'],
    [`/api/jobs/${jobId}`, `/jobs/${jobId}`],
  ]) {
    const mine = await call(base, 'GET', ours, undefined, bearer);
    const plain = await call(plainUrl, 'GET', theirs);
    if (mine.status !== 200 || plain.status !== 200 || !isDeepStrictEqual(mine.body, plain.body)) {
      throw new Error(`the plain server's ${theirs} does not answer what ${ours} does:\n${JSON.stringify(plain.body).slice(0, 2000)}\n${JSON.stringify(mine.body).slice(0, 2000)}`);
    }
  }
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  ratio?: number;
  target?: string;
  pass?: boolean;
}

type Request = { method: string; path: string; body?: string; headers?: Record<string, string> };

async function load(opts: Options, name: string, url: string, request: Request | (() => Request), extra: Partial<LoadOptions> = {}): Promise<Measured> {
  const fixed = typeof request === 'function' ? null : request;
  const result = await autocannon({
    url: fixed ? `${url}${fixed.path}` : url,
    connections: opts.connections,
    duration: opts.duration,
    timeout: 30,
    ...(fixed
      ? { method: fixed.method, body: fixed.body, headers: { 'content-type': 'application/json', ...fixed.headers } }
      : {
          requests: [
            {
              setupRequest: (req: Record<string, unknown>) => {
                const next = (request as () => Request)();
                return { ...req, method: next.method, path: next.path, body: next.body, headers: { 'content-type': 'application/json', ...next.headers } };
              },
            },
          ],
        }),
    ...extra,
  });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/** Slices of equal length merged: requests per second over the whole, latencies as the slices' means, errors summed. */
function merge(name: string, slices: Measured[]): Measured {
  const mean = (pick: (m: Measured) => number) => slices.reduce((sum, m) => sum + pick(m), 0) / slices.length;
  return { name, rps: mean((m) => m.rps), p50: mean((m) => m.p50), p99: mean((m) => m.p99), errors: slices.reduce((sum, m) => sum + m.errors, 0) };
}

function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a';
}

function printTable(rows: Measured[], baselineRps: number): void {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'vs baseline', 'target', ''];
  const lines = rows.map((r) => [
    r.name,
    fmt(r.rps),
    fmt(r.p50),
    fmt(r.p99),
    String(r.errors),
    r.ratio !== undefined ? fmt(r.ratio, 2) : fmt(r.rps / baselineRps, 2),
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(row(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(row(l));
}

async function main(): Promise<void> {
  const opts = options();
  const wanted = (name: string) => !opts.only || opts.only.includes(name);
  const db = await openDatabase('postgres', opts.pg);
  const logFile = path.join(os.tmpdir(), `cronbeam-api-bench-${process.pid}.log`);
  const sql = new Client({ connectionString: db.url });
  let instance: BenchInstance | undefined;
  let baseline: ChildProcess | undefined;
  try {
    instance = await BenchInstance.start(db.url, { PROG_RATE_LIMIT: '1000000', SMTP_URL: '', LOG_LEVEL: 'info' }, logFile);
    const base = instance.url;
    await sql.connect();
    const reader = await account(base, sql);
    const writer = await account(base, sql);
    const bulkUser = await account(base, sql);
    const importUser = await account(base, sql);
    for (let i = 0; i < LISTED_JOBS; i++) {
      const created = await call(base, 'POST', '/api/jobs', { ...JOB_DEFINITION, name: `listed-${i}` }, { authorization: `Bearer ${reader.token}` });
      if (created.status !== 200) throw new Error(`creating a job answered ${created.status}: ${JSON.stringify(created.body)}`);
    }
    const [{ id: oneJob }] = (await sql.query(`SELECT id FROM jobs WHERE account_id = $1 ORDER BY created_at LIMIT 1`, [reader.userId])).rows;
    // Finished runs for the logs route (the default page of 20).
    await sql.query(
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at, state, status, response_code, duration_ms, executed_at, finished_at)
       SELECT $1, $2, 'schedule', t, t, 'done', 'success', 200, 12, t, t FROM (SELECT now() - n * interval '1 minute' AS t FROM generate_series(1, 20) n) s`,
      [oneJob, reader.userId],
    ).catch((error: Error) => console.log(`(logs route without runs: ${error.message})`));
    const bearer = { authorization: `Bearer ${reader.token}` };
    const apiKey = { 'x-api-key': reader.apiKey, 'x-user-id': reader.userId };
    const write = { authorization: `Bearer ${writer.token}` };

    const started = await startBaseline(db.url, reader.userId, writer.userId);
    baseline = started.child;
    await sameAnswers(base, started.url, bearer, oneJob);
    const rows: Measured[] = [];
    // Both servers get a short unrecorded run first, so neither is measured while V8 is still compiling it.
    const warm = { ...opts, duration: 3 };
    await load(warm, 'warm-up', started.url, { method: 'GET', path: '/jobs' });
    await load(warm, 'warm-up', base, { method: 'GET', path: '/api/jobs', headers: bearer });
    const baselineList: Request = { method: 'GET', path: '/jobs' };
    const target = (r: Measured, label: string, ok: boolean): Measured => ({ ...r, target: label, pass: ok });
    /** A ratio target of the issue: at least `floor` of the plain server doing the same work, and no errors. */
    const atLeast = (r: Measured, floor: number): Measured => target(r, `>= ${fmt(floor, 1)} of plain`, r.ratio! >= floor && r.errors === 0);
    /**
     * A scenario in slices alternating with the same slices of the plain
     * server, so both see the same machine (other work on it comes and goes):
     * the ratio of the two is the figure to compare between runs.
     */
    const paired = async (name: string, request: Request | (() => Request), extra: Partial<LoadOptions> = {}, plain: Request = baselineList): Promise<Measured> => {
      const slice = { ...opts, duration: Math.max(1, Math.round(opts.duration / SLICES)) };
      const mine: Measured[] = [];
      const theirs: Measured[] = [];
      for (let i = 0; i < SLICES; i++) {
        theirs.push(await load(slice, 'baseline', started.url, plain, extra));
        mine.push(await load(slice, name, base, request, extra));
      }
      const merged = merge(name, mine);
      const reference = merge('baseline', theirs);
      if (plain === baselineList) baselineRuns.push(reference);
      return { ...merged, ratio: merged.rps / reference.rps };
    };
    const baselineRuns: Measured[] = [];
    if (wanted('ping')) {
      rows.push(atLeast(await paired('GET /api/ping (vs plain node:http ping)', { method: 'GET', path: '/api/ping' }, {}, { method: 'GET', path: '/ping' }), 0.5));
    }
    if (wanted('list')) {
      rows.push(atLeast(await paired(`GET /api/jobs (${LISTED_JOBS} jobs, bearer)`, { method: 'GET', path: '/api/jobs', headers: bearer }), 0.8));
      rows.push(atLeast(await paired(`GET /prog/jobs (${LISTED_JOBS} jobs, API key)`, { method: 'GET', path: '/prog/jobs', headers: apiKey }), 0.7));
    }
    if (wanted('get')) {
      const plainGet: Request = { method: 'GET', path: `/jobs/${oneJob}` };
      rows.push(await paired('GET /api/jobs/:id (vs plain get)', { method: 'GET', path: `/api/jobs/${oneJob}`, headers: bearer }, {}, plainGet));
    }
    if (wanted('logs')) rows.push(await paired('GET /api/jobs/:id/logs (20 runs; vs plain list)', { method: 'GET', path: `/api/jobs/${oneJob}/logs`, headers: bearer }));
    if (wanted('update')) {
      const body = JSON.stringify({ ...JOB_DEFINITION, name: 'listed-0', method: 'POST' });
      rows.push(await paired('PUT /api/jobs/:id (vs plain list)', { method: 'PUT', path: `/api/jobs/${oneJob}`, headers: bearer, body }));
    }
    if (wanted('create')) {
      const body = JSON.stringify({ ...JOB_DEFINITION, name: 'c-[<id>]' });
      // Beside a plain INSERT of the same job answering the same view (no validation, plan limit, audit entry or wake-up).
      const plainCreate: Request = { method: 'POST', path: '/jobs', body: JSON.stringify({ ...JOB_DEFINITION, name: 'p-[<id>]' }) };
      rows.push(atLeast(await paired('POST /api/jobs (vs plain insert)', { method: 'POST', path: '/api/jobs', headers: write, body }, { idReplacement: true }, plainCreate), 0.5));
    }
    if (wanted('delete')) {
      const ids = (await sql.query(`SELECT id FROM jobs WHERE account_id = $1`, [writer.userId])).rows.map((r: { id: string }) => r.id);
      // More jobs to delete than any run can get through: the rest are made straight in the table.
      const more = await sql.query(
        `INSERT INTO jobs (account_id, name, url, cron_expression, status) SELECT $1, 'd-' || n, 'https://example.com/d', '0 0 1 1 *', 'paused' FROM generate_series(1, $2) n RETURNING id`,
        [writer.userId, Math.max(0, 60_000 - ids.length)],
      );
      const queue = [...ids, ...more.rows.map((r: { id: string }) => r.id)];
      rows.push(await paired('DELETE /api/jobs/:id (vs plain list)', () => ({ method: 'DELETE', path: `/api/jobs/${queue.pop()}`, headers: write })));
    }
    const reference = merge('baseline: plain node:http + pg, list 20 jobs (all slices)', baselineRuns);
    rows.unshift({ ...reference, ratio: 1 });
    /** Stores BATCHES x BATCH jobs through one route, one request per batch, and times it. */
    const timedCreation = async (
      route: string,
      owner: { token: string; userId: string },
      batches: number,
      batch: number,
      bodyOf: (jobs: object[]) => object,
      stored: (res: { status: number; body: { created?: number } }) => boolean,
      seconds: number,
    ) => {
      const started = Date.now();
      let status = 0;
      for (let b = 0; b < batches; b++) {
        const jobs = Array.from({ length: batch }, (_, i) => ({ ...JOB_DEFINITION, name: `${route.split('/').pop()}-${b}-${i}` }));
        const res = await call(base, 'POST', route, bodyOf(jobs), { authorization: `Bearer ${owner.token}` });
        status = res.status;
        if (!stored(res)) break;
      }
      const took = (Date.now() - started) / 1000;
      const made = Number((await sql.query(`SELECT count(*) FROM jobs WHERE account_id = $1`, [owner.userId])).rows[0].count);
      const ok = status === 200 && made === batch * batches;
      rows.push({
        name: `POST ${route}: ${fmt(batch * batches)} jobs (${batches} x ${fmt(batch)}) in ${fmt(took, 2)} s`,
        rps: made / took,
        p50: NaN,
        p99: NaN,
        errors: ok ? 0 : 1,
        ratio: NaN,
        target: `<= ${seconds} s`,
        pass: ok && took <= seconds,
      });
      if (!ok) console.log(`${route}: last answer ${status}, ${made} jobs made`);
    };
    if (wanted('bulk')) await timedCreation('/api/jobs/bulk', bulkUser, BULK_BATCHES, BULK_BATCH, (jobs) => ({ jobs }), (res) => res.status === 200, 5);
    if (wanted('import')) {
      const asImport = (jobs: object[]) => ({ format: 'json', content: JSON.stringify({ jobs }) });
      await timedCreation('/api/jobs/import', importUser, IMPORT_BATCHES, IMPORT_BATCH, asImport, (res) => res.status === 200 && res.body.created === IMPORT_BATCH, 10);
    }
    // Last: a million stored jobs would change every figure measured after them.
    if (wanted('stored')) {
      // The user's own 50 jobs, listed before and after a million others are stored; each figure beside the plain server's.
      for (let i = LISTED_JOBS; i < STORED_LISTED_JOBS; i++) {
        const created = await call(base, 'POST', '/api/jobs', { ...JOB_DEFINITION, name: `listed-${i}` }, { authorization: `Bearer ${reader.token}` });
        if (created.status !== 200) throw new Error(`creating a job answered ${created.status}: ${JSON.stringify(created.body)}`);
      }
      const name = (when: string) => `GET /api/jobs (${STORED_LISTED_JOBS} own jobs), ${when} ${fmt(opts.storedJobs)} other jobs stored`;
      // A plain request of its own, so these slices (50 jobs) stay out of the 20-job reference row.
      const plain50: Request = { method: 'GET', path: '/jobs' };
      const empty = await paired(name('before'), { method: 'GET', path: '/api/jobs', headers: bearer }, {}, plain50);
      rows.push(empty);
      const seeding = Date.now();
      await seedIdleJobs(sql, opts.storedJobs);
      console.log(`(${fmt(opts.storedJobs)} idle jobs of other users stored in ${fmt((Date.now() - seeding) / 1000, 1)} s)`);
      const full = await paired(name('after'), { method: 'GET', path: '/api/jobs', headers: bearer }, {}, plain50);
      // The route's own req/s before and after: a query slowed by the table's size would slow the plain server
      // alike, so the ratio to it cannot show this; its "vs baseline" column still tells the machine's noise apart.
      const kept = full.rps / empty.rps;
      const plainKept = full.rps / full.ratio! / (empty.rps / empty.ratio!);
      rows.push(target(full, `>= 0.90 of before (${fmt(kept, 2)}; plain server ${fmt(plainKept, 2)})`, kept >= 0.9 && full.errors === 0));
    }
    console.log(`\nAPI benchmark on PostgreSQL: ${opts.connections} connections, ${opts.duration} s each, ${os.cpus().length} CPUs, Node ${process.version}\n`);
    printTable(rows, reference.rps);
    console.log(
      `\nEach scenario ran in ${SLICES} slices alternating with slices of the plain server; "vs baseline" is its req/s over the plain server's in those same slices` +
        ` doing the same work (ping, list, one job, an insert; the job list where the name says "vs plain list"). p50/p99 are the slices' means.` +
        ` For bulk, req/s is jobs created per second. Service log: ${logFile}`,
    );
  } finally {
    baseline?.kill();
    await sql.end().catch(() => undefined);
    await instance?.stop();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
