import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures } from './scheduler-fixtures';

jest.setTimeout(120_000);

const TIMEOUT_MS = 2_000;
const PER_ORIGIN = 4;
const MAX_PER_ORIGIN = 16;
/** Runs of one user to a host that accepts connections and never answers. */
const HUNG_RUNS = 20;
/** Every attempt of a failed scheduled run: the first and three retries. */
const ATTEMPTS = 4;
/** "Promptly": far below the time limit, with room for a busy test machine. */
const PROMPT_MS = 1_000;

const NOT_SENT = new RegExp(
  `^Not sent: no connection to 127\\.0\\.0\\.1:\\d+ became free within ${TIMEOUT_MS} ms \\(other requests to this host were still waiting for answers\\)$`,
);
const TIMED_OUT = `Timeout: no response within ${TIMEOUT_MS} ms`;

describe('reliability: a hung target host', () => {
  let server: TestServer;
  let target: HttpTarget;
  let otherHost: HttpTarget;
  let db: SchedulerFixtures;

  beforeAll(async () => {
    target = await HttpTarget.start();
    otherHost = await HttpTarget.start();
    // Accepts the request and never answers (the socket is closed when the client gives up or the target stops).
    target.on('/hang', () => undefined);
    server = await startTestServer({
      ...FAST_SCHEDULER_ENV,
      EXECUTION_TIMEOUT_MS: String(TIMEOUT_MS),
      // Twice the time limit: a run may wait for a connection as long as its time limit.
      SCHEDULER_LEASE_GRACE_MS: String(2 * TIMEOUT_MS),
      EXECUTOR_CONNECTIONS_PER_ORIGIN: String(PER_ORIGIN),
      EXECUTOR_MAX_CONNECTIONS_PER_ORIGIN: String(MAX_PER_ORIGIN),
    });
    db = await SchedulerFixtures.connect(server.database.url);
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
    await otherHost?.close();
  });

  interface Scenario {
    bobRuns: Array<{ status: number; body: any; tookMs: number }>;
    elsewhere: Array<{ status: string; duration_ms: number; error_message: string | null }>;
    hungRuns: Array<{ id: string; attempt: number; error_message: string }>;
    reached: Set<string | string[] | undefined>;
  }
  let scenario: Scenario;

  // One scenario, its properties checked one by one below.
  beforeAll(async () => {
    const alice = await db.user('pro');
    const due = new Date(Date.now() + 1_500);
    const hung = await Promise.all(Array.from({ length: HUNG_RUNS }, () => db.job(alice, { url: `${target.url}/hang`, nextRunAt: due })));
    const elsewhere = await Promise.all(Array.from({ length: 3 }, () => db.job(alice, { url: `${otherHost.url}/elsewhere`, nextRunAt: due })));

    // Bob's job goes to the same host (another path, which answers at once).
    const bob = await signUpAndLogin(server);
    const created = await server.http.post('/api/jobs', { name: 'fast', url: `${target.url}/fast`, method: 'GET', cron_expression: '0 0 1 1 *' }, { token: bob.accessToken });
    expect(created.status).toBe(200);

    // Once alice's hung requests hold every connection the host starts with, bob runs his job twice at once.
    await target.waitFor(() => target.requests('/hang').length >= PER_ORIGIN, 10_000);
    const bobRuns = await Promise.all(
      [0, 1].map(async () => {
        const startedAt = performance.now();
        const res = await server.http.post(`/api/jobs/${created.body.job_id}/run`, undefined, { token: bob.accessToken });
        return { status: res.status, body: res.body, tookMs: performance.now() - startedAt };
      }),
    );

    const other = await eventually(async () => {
      const rows = await db.query(`SELECT status, duration_ms, error_message FROM job_runs WHERE job_id = ANY($1) AND state = 'done'`, [`{${elsewhere.join(',')}}`]);
      return rows.length === elsewhere.length ? rows : null;
    }, 20_000, 'runs to the other host recorded');

    const hungRuns = await eventually(async () => {
      const rows = await db.query<{ id: string; attempt: number; error_message: string }>(
        `SELECT id, attempt, error_message FROM job_runs WHERE job_id = ANY($1) AND state = 'done' ORDER BY attempt`,
        [`{${hung.join(',')}}`],
      );
      return rows.length === HUNG_RUNS * ATTEMPTS ? rows : null;
    }, 90_000, 'every attempt of the hung runs recorded');
    const reached = new Set(target.requests('/hang').map((r) => r.headers['x-cronbeam-execution-id']));
    expect(reached.size).toBe(target.requests('/hang').length); // each attempt reached the host at most once
    scenario = { bobRuns, elsewhere: other, hungRuns, reached };
  });

  it("serves another user's runs to the same host at once while one user's requests hang there (fair share)", () => {
    for (const { status, body, tookMs } of scenario.bobRuns) {
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'success', response_code: 200, error_message: null });
      expect(tookMs).toBeLessThan(PROMPT_MS);
    }
    expect(target.requests('/fast')).toHaveLength(2);
  });

  it('runs to other hosts are not held up by the hung one', () => {
    for (const run of scenario.elsewhere) {
      expect(run).toMatchObject({ status: 'success', error_message: null });
      expect(run.duration_ms).toBeLessThan(PROMPT_MS);
    }
  });

  it('logs every attempt truthfully: it reached the host and timed out, or it was never sent for want of a connection', () => {
    const { hungRuns, reached } = scenario;
    const mislabelled = hungRuns.filter((r) => (reached.has(r.id) ? r.error_message !== TIMED_OUT : !NOT_SENT.test(r.error_message)));
    expect(mislabelled).toEqual([]);
    expect(hungRuns.filter((r) => !reached.has(r.id)).length).toBeGreaterThan(0);
  });

  it('gives a host that answers nothing more connections than it starts with', () => {
    const { hungRuns, reached } = scenario;
    const firstReached = hungRuns.filter((r) => r.attempt === 1 && reached.has(r.id)).length;
    expect(firstReached).toBeGreaterThan(PER_ORIGIN);
  });
});
