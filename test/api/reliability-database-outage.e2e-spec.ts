import { Client } from 'pg';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_DETAIL } from '../../backend/src/common/http/api-error';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { openEventStream } from '../support/event-stream';
import type { HttpResult } from '../support/http-client';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition } from './jobs-fixtures';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';

jest.setTimeout(120_000);

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

function expectDatabaseUnavailable(answer: HttpResult, what: string): void {
  expect({ what, status: answer.status, retryAfter: answer.headers.get('retry-after'), body: answer.body }).toEqual({
    what,
    status: 503,
    retryAfter: String(DATABASE_RETRY_AFTER_SECONDS),
    body: { detail: DATABASE_UNAVAILABLE_DETAIL },
  });
}

/**
 * The outage is the PostgreSQL server's own doing, and reversible without
 * touching the server other suites share: the test's database stops accepting
 * connections (new ones are refused with FATAL 55000) and every session the
 * application holds is terminated (FATAL 57P01, as a server shutdown sends),
 * then connections are allowed again. The application is never told.
 */
// PostgreSQL only: the embedded database runs inside the server's own process, so nothing outside it can make the
// database unreachable while the server runs (it stops with the process, which scheduler-chaos covers).
(onPostgres ? describe : describe.skip)('database outage on PostgreSQL: the database refuses connections and ends every session, then comes back', () => {
  let target: HttpTarget;
  let database: TestDatabase;
  let server: TestServer;
  let user: SignedInAccount;
  let apiKey: string;
  let db: SchedulerFixtures;
  let admin: Client;
  let databaseName: string;

  beforeAll(async () => {
    target = await HttpTarget.start();
    database = await createTestDatabase(5, { migrated: true });
    databaseName = new URL(database.url).pathname.slice(1);
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, EXECUTION_TIMEOUT_MS: '5000' }, database);
    user = await signUpAndLogin(server);
    const generated = await server.http.post('/api/api-keys/generate', { name: 'outage' }, { token: user.accessToken });
    expect(generated.status).toBe(200);
    apiKey = generated.body.api_key;
    db = await SchedulerFixtures.connect(database.url);
    admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.query(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin?.end();
    await db?.close();
    await server?.close();
    await database?.drop();
    await target?.close();
  });

  const listJobs = () => server.http.get('/api/jobs', { token: user.accessToken });
  const createJob = (name: string) => server.http.post('/api/jobs', jobDefinition({ name, url: `${target.url}/created`, cron_expression: '0 0 1 1 *' }), { token: user.accessToken });
  const progJobs = () => server.http.get('/prog/jobs', { headers: { authorization: `Bearer ${apiKey}` } });

  /** Refuses new connections and terminates the application's sessions; waits until the server shows none left. */
  async function cutOff(): Promise<void> {
    const [{ pid: fixturePid }] = await db.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`);
    await admin.query(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS false`);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2`, [databaseName, fixturePid]);
    await eventually(async () => {
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> $2`, [databaseName, fixturePid]);
      return rows[0].n === 0;
    }, 10_000, "the application's sessions ended");
  }

  it('answers 503 with Retry-After on /api, /prog, the event stream and /api/ready, logs an outage warning, not an error per request; serves again without a restart; the instant due meanwhile fires once after it', async () => {
    expect((await listJobs()).status).toBe(200);
    expect((await progJobs()).status).toBe(200);
    const logLinesBefore = server.logs.entries().length;

    await cutOff();
    // Due while the database is unreachable: the scheduler can neither claim nor record it until it is back.
    const due = new Date(Date.now() + 1_000);
    const jobId = await db.job(user.userId, { url: `${target.url}/outage`, nextRunAt: due, status: 'scheduled' });

    expectDatabaseUnavailable(await listJobs(), 'GET /api/jobs');
    expectDatabaseUnavailable(await createJob('during-outage'), 'POST /api/jobs');
    expectDatabaseUnavailable(await progJobs(), 'GET /prog/jobs');
    expectDatabaseUnavailable(await server.http.get('/api/ready'), 'GET /api/ready');
    // Authentication reads the caller and their membership on every request, so opening a stream needs the database.
    const stream = await openEventStream(server, user.accessToken);
    try {
      const body = stream.res.headers.get('content-type')?.includes('json') ? await stream.res.json() : null;
      expectDatabaseUnavailable({ status: stream.res.status, headers: stream.res.headers, body, text: '' }, 'GET /api/events');
    } finally {
      await stream.close();
    }
    // Liveness does not depend on the database.
    expect((await server.http.get('/api/ping')).status).toBe(200);

    await eventually(async () => Date.now() > due.getTime() + 1_000, 10_000, 'the instant passed during the outage');
    expect(target.requests('/outage')).toHaveLength(0);
    const during = server.logs.entries().slice(logLinesBefore);
    expect(during.filter((e) => e.msg === 'Unhandled error')).toEqual([]);
    // One warning per interval, not one per request: the four refusals above come within it on any machine.
    const warnings = during.filter((e) => /^The database cannot be reached/.test(String(e.msg)));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThan(4);
    expect(warnings[0]).toMatchObject({ level: 40, reason: expect.stringMatching(/^(57P01|55000|Connection terminated)/) });
    // Written through the request's logger: the line names the request it came from.
    expect(warnings[0]).toMatchObject({ req: { id: expect.stringMatching(/^[\w.:-]+$/), method: expect.any(String), url: expect.stringMatching(/^\//) } });
    expect(warnings[0]).not.toHaveProperty('err');

    await admin.query(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS true`);
    const restoredAt = Date.now();
    await eventually(async () => (await listJobs()).status === 200, 15_000, 'GET /api/jobs answering 200 again');
    process.stdout.write(`\nDatabase outage (PostgreSQL): the API served again ${Date.now() - restoredAt} ms after connections were allowed\n`);
    expect((await createJob('after-outage')).status).toBe(200);
    expect((await progJobs()).status).toBe(200);
    expect((await server.http.get('/api/ready')).status).toBe(200);
    const reopened = await openEventStream(server, user.accessToken);
    expect(reopened.res.status).toBe(200);
    await reopened.close();

    // The scheduler recovers too: the run due during the outage arrives once, and is recorded once.
    await target.waitFor(() => target.requests('/outage').length >= 1, 30_000);
    await schedulerPassed(db, `${target.url}/sentinel`, 500);
    expect(target.requests('/outage')).toHaveLength(1);
    process.stdout.write(`Database outage (PostgreSQL): the run due during it arrived ${Math.round(target.requests('/outage')[0].arrivedAt - restoredAt)} ms after connections were allowed\n`);
    const runs = await eventually(async () => {
      const rows = await db.runs(jobId);
      return rows.every((r) => r.state === 'done') && rows.length > 0 ? rows : null;
    }, 10_000, 'the run recorded');
    expect(runs.map((r) => ({ status: r.status, scheduledFor: new Date(r.scheduled_for).getTime() }))).toEqual([{ status: 'success', scheduledFor: due.getTime() }]);
  });
});

