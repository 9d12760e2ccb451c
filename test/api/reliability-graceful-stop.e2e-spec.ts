import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { startServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { eventually, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';

jest.setTimeout(150_000);

const EXECUTION_ID = 'x-cronbeam-execution-id';
/**
 * The target answers the slow paths after this long: longer than what a
 * stop used to wait for requests (half its 10 s budget), shorter than the
 * execution timeout below, so every slow request must end with its answer.
 */
const SLOW_MS = 6_000;
const EXECUTION_TIMEOUT_MS = 12_000;

type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

function answerAfter(ms: number) {
  return (_req: unknown, res: ServerResponse) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    }, ms);
  };
}

/** An event stream held open on `url`; `ended` resolves when the server ends it (or cuts the connection). */
async function openEventStream(url: string, token: string): Promise<{ ended: Promise<void> }> {
  const res = await fetch(`${url}/api/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const ended = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // a cut connection ends the stream too
    }
  })();
  return { ended };
}

async function runNowJob(server: ServerProcess, account: SignedInAccount, url: string): Promise<string> {
  const http = new HttpClient(server.url);
  const created = await http.post('/api/jobs', { name: `slow-${Date.now()}`, url, cron_expression: '0 0 1 1 *' }, { token: account.accessToken });
  expect(created.status).toBe(200);
  return created.body.job_id;
}

/** Waits until the target has the manual run's request; fails with the call's answer if that comes first. */
async function manualRunSent(target: HttpTarget, call: Promise<{ status: number; text: string }>): Promise<void> {
  let sent = false;
  const early = call.then((answer) => {
    if (!sent) throw new Error(`the manual run answered before its request reached the target: ${answer.status} ${answer.text}`);
  });
  await Promise.race([target.waitFor(() => target.requests('/run-now').length === 1, 10_000).then(() => (sent = true)), early]);
}

/** What a stopping server answers to a request it did not take: 503, Retry-After and a detail. */
async function expectRefused(url: string): Promise<void> {
  const refused = await fetch(`${url}/api/ready`);
  expect(refused.status).toBe(503);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(await refused.json()).toEqual({ detail: 'The server is shutting down; retry the request in a moment' });
}

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

(onPostgres ? describe : describe.skip)('graceful stop on PostgreSQL: a rolling deploy of two instances, SIGTERM to one during slow requests', () => {
  const JOBS = 24;
  let database: TestDatabase;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let stopping: ServerProcess;
  let staying: ServerProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/slow', answerAfter(SLOW_MS));
    target.on('/run-now', answerAfter(SLOW_MS));
    database = await createTestDatabase(4);
    // The default safety poll (5 s): handed-back runs reach the other instance on time only through its wake-up.
    // A 30 s look-ahead: the instance to be stopped claims both instants as soon as they are stored, before the
    // other instance starts, so it holds every run of them (which of two running instances claims what is a race
    // the machine's load decides, and one instance often took a whole instant).
    env = {
      DATABASE_URL: database.url,
      SCHEDULER_ENABLED: 'true',
      ALLOW_PRIVATE_TARGETS: 'true',
      EXECUTION_TIMEOUT_MS: String(EXECUTION_TIMEOUT_MS),
      SCHEDULER_LEASE_GRACE_MS: '1000',
      SCHEDULER_LOOKAHEAD_MS: '30000',
      SCHEDULER_BATCH_SIZE: '4',
      SCHEDULER_IDLE_GC: 'false',
    };
    stopping = await startServerProcess(env); // it migrates; the other instance starts once it holds the runs
    db = await SchedulerFixtures.connect(database.url);
  });

  afterAll(async () => {
    await db?.close();
    for (const server of [stopping, staying]) {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exitCode(30_000);
      }
    }
    await database?.drop();
    await target?.close();
  });

  it('exits 0, records every run once, sends none twice, hands its unsent runs over at once and answers every call', async () => {
    const account = await signUpAndLogin({ http: new HttpClient(stopping.url) });
    const runNowId = await runNowJob(stopping, account, `${target.url}/run-now`);
    const userId = await db.user('unlimited');
    // The slow instant (in flight at the stop), and one 8 s later (claimed ahead of time, not sent at the stop).
    const slowDue = new Date(Date.now() + 9_000);
    const laterDue = new Date(slowDue.getTime() + 8_000);
    const insert = (name: string, due: Date) =>
      db.query(
        `INSERT INTO jobs (account_id, name, url, cron_expression, status, next_run_at)
         SELECT $1, '${name}-' || n, $2 || '/${name}?n=' || n, '0 0 1 1 *', 'scheduled', $3 FROM generate_series(1, ${JOBS}) AS n`,
        [userId, target.url, due],
      );
    await insert('slow', slowDue);
    await insert('later', laterDue);

    const stoppingOwner = `${os.hostname()}:${stopping.child.pid}:`;
    const leases = () => db.query<{ id: string; lease_owner: string; url: string }>(
      `SELECT r.id, r.lease_owner, j.url FROM job_runs r JOIN jobs j ON j.id = r.job_id WHERE r.account_id = $1 AND r.state = 'running'`,
      [userId],
    );
    // Both instants claimed ahead by the instance about to stop; then the rolling deploy's other instance starts.
    const claimed = await eventually(async () => {
      const rows = await leases();
      return rows.length === 2 * JOBS ? rows : null;
    }, 20_000, 'both instants claimed');
    const heldLater = claimed.filter((r) => r.url.includes('/later') && r.lease_owner.startsWith(stoppingOwner)).map((r) => r.id);
    const heldSlow = claimed.filter((r) => r.url.includes('/slow') && r.lease_owner.startsWith(stoppingOwner));
    expect(heldSlow).toHaveLength(JOBS);
    expect(heldLater).toHaveLength(JOBS);
    staying = await startServerProcess(env);
    // The slow instant's requests are on the wire, held by the target.
    await target.waitFor(() => target.requests('/slow').length === JOBS, 15_000);

    // A manual run and an event stream open on the instance about to stop.
    const stream = await openEventStream(stopping.url, account.accessToken);
    const runNow = new HttpClient(stopping.url).post(`/api/jobs/${runNowId}/run`, undefined, { token: account.accessToken });
    await manualRunSent(target, runNow);

    const signalled = Date.now();
    stopping.child.kill('SIGTERM');
    await eventually(async () => (await fetch(`${stopping.url}/api/ready`)).status === 503, 5_000, 'refusing new requests');
    await expectRefused(stopping.url);

    expect(await stopping.exitCode(EXECUTION_TIMEOUT_MS + 10_000)).toBe(0);
    const stopMs = Date.now() - signalled;
    const answered = await runNow;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'success', response_code: 200, trigger: 'manual' });
    await stream.ended;

    // Nothing left leased to the stopped instance, and its liveness row is gone.
    expect(await db.query(`SELECT id FROM job_runs WHERE state <> 'done' AND lease_owner LIKE $1`, [`${stoppingOwner}%`])).toEqual([]);
    expect(await db.query(`SELECT id FROM scheduler_instances WHERE id LIKE $1`, [`${stoppingOwner}%`])).toEqual([]);

    // The runs it handed back went out on time from the other instance.
    await target.waitFor(() => target.requests('/later').length >= JOBS, 15_000);
    const lateness = target
      .requests('/later')
      .filter((r) => heldLater.includes(String(r.headers[EXECUTION_ID])))
      .map((r) => r.arrivedAt - laterDue.getTime());
    expect(lateness).toHaveLength(heldLater.length);
    expect(Math.max(...lateness)).toBeLessThan(1_500);

    // Past the slow runs' lease (due + execution timeout + grace): nothing was sent again.
    await schedulerPassed(db, `${target.url}/sentinel`, slowDue.getTime() + EXECUTION_TIMEOUT_MS + 2_000 - Date.now());
    const runs = await db.query<{ url: string; state: string; status: string; n: string }>(
      `SELECT j.url, r.state, r.status, count(*) AS n FROM job_runs r JOIN jobs j ON j.id = r.job_id
       WHERE j.account_id IN ($1, $2) GROUP BY j.url, r.state, r.status`,
      [userId, account.userId],
    );
    expect(runs.every((r) => r.state === 'done' && r.status === 'success' && r.n === '1')).toBe(true);
    expect(runs).toHaveLength(2 * JOBS + 1);
    const sent = [...target.requests('/slow'), ...target.requests('/later'), ...target.requests('/run-now')];
    expect(sent).toHaveLength(2 * JOBS + 1);
    expect(new Set(sent.map((r) => r.headers[EXECUTION_ID])).size).toBe(2 * JOBS + 1);
    process.stdout.write(`graceful stop: exited 0 after ${stopMs} ms; handed back ${heldLater.length} runs, at most ${Math.round(Math.max(...lateness))} ms late\n`);
  });
});

describe('graceful stop on the embedded database: SIGTERM during a manual run', () => {
  let target: HttpTarget;
  let dataDir: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/run-now', answerAfter(SLOW_MS));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-graceful-stop-'));
  });

  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await target?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the call in flight, refuses new ones, exits 0, and the run is recorded once', async () => {
    const env = { DATA_DIR: dataDir, SCHEDULER_ENABLED: 'true', ALLOW_PRIVATE_TARGETS: 'true', EXECUTION_TIMEOUT_MS: String(EXECUTION_TIMEOUT_MS), SCHEDULER_IDLE_GC: 'false' };
    const server = await startServerProcess(env);
    servers.push(server);
    const account = await signUpAndLogin({ http: new HttpClient(server.url) });
    const jobId = await runNowJob(server, account, `${target.url}/run-now`);
    const stream = await openEventStream(server.url, account.accessToken);
    const runNow = new HttpClient(server.url).post(`/api/jobs/${jobId}/run`, undefined, { token: account.accessToken });
    await manualRunSent(target, runNow);

    server.child.kill('SIGTERM');
    await eventually(async () => (await fetch(`${server.url}/api/ready`)).status === 503, 5_000, 'refusing new requests');
    await expectRefused(server.url);
    expect(await server.exitCode(EXECUTION_TIMEOUT_MS + 10_000)).toBe(0);
    const answered = await runNow;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'success', response_code: 200 });
    await stream.ended;

    // Started again on the same data (and port, so the session stays valid): the run is in the log, once.
    const again = await startServerProcess({ ...env, PORT: new URL(server.url).port });
    servers.push(again);
    try {
      const logs = await new HttpClient(again.url).get(`/api/jobs/${jobId}/logs`, { token: account.accessToken });
      expect(logs.status).toBe(200);
      expect(logs.body.logs).toHaveLength(1);
      expect(logs.body.logs[0]).toMatchObject({ run_id: answered.body.run_id, status: 'success' });
      expect(target.requests('/run-now')).toHaveLength(1);
    } finally {
      again.child.kill('SIGTERM');
      expect(await again.exitCode(30_000)).toBe(0);
    }
  });

  it('with a SHUTDOWN_TIMEOUT_MS shorter than the request, records and answers the run as interrupted, and still exits 0', async () => {
    const shortDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-graceful-stop-'));
    try {
      const server = await startServerProcess({ DATA_DIR: shortDir, ALLOW_PRIVATE_TARGETS: 'true', EXECUTION_TIMEOUT_MS: String(EXECUTION_TIMEOUT_MS), SHUTDOWN_TIMEOUT_MS: '3000' });
      servers.push(server);
      expect(server.output()).toMatch(/SHUTDOWN_TIMEOUT_MS \(3000 ms\) leaves requests 1500 ms to finish, less than the longest execution/);
      const account = await signUpAndLogin({ http: new HttpClient(server.url) });
      const jobId = await runNowJob(server, account, `${target.url}/run-now-short`);
      target.on('/run-now-short', answerAfter(SLOW_MS));
      const runNow = new HttpClient(server.url).post(`/api/jobs/${jobId}/run`, undefined, { token: account.accessToken });
      await target.waitFor(() => target.requests('/run-now-short').length === 1, 10_000);
      server.child.kill('SIGTERM');
      const code = await server.exitCode(10_000);
      if (code !== 0) process.stdout.write(server.output());
      expect(code).toBe(0);
      // The answer comes once the result is stored: the manual run is in the log as interrupted.
      const answered = await runNow;
      expect(answered.status).toBe(200);
      expect(answered.body).toMatchObject({ status: 'failed', response_code: null, error_message: 'Interrupted: the instance stopped before the target answered' });
    } finally {
      fs.rmSync(shortDir, { recursive: true, force: true });
    }
  });
});
