import { HttpTarget } from '../fakes/http-target';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures } from './scheduler-fixtures';

jest.setTimeout(60_000);

/** Claims reach this far ahead here: long enough that a claim delayed by a busy test machine is still ahead of its runs. */
const LOOKAHEAD_MS = 1_500;
/** The stream: this many runs, one every SPACING_MS, each at its own instant. */
const RUNS = 1_000;
const SPACING_MS = 4;
/**
 * Results are written in batches, held back only while a burst is being
 * sent; a steady stream is not one. Held back, each result waited up to the
 * recorder's longest (3 s). The lease grace is the default here, so that it
 * does not cap that wait.
 */
const STORED_WITHIN_MS = 2_000;
/**
 * The target answers at once, but it shares this process with the server:
 * on a loaded machine (CI runs two test files beside each other) an answer
 * can take longer than the fast scheduler's 1 s limit, and the timed-out run
 * is retried, a second request the test would rightly count as a double.
 */
const EXECUTION_TIMEOUT_MS = 10_000;

/**
 * Runs due back to back at distinct milliseconds (a steady rate rather than
 * bursts on whole seconds): claiming goes on between their releases. It used
 * to keep out of the 250 ms around every release, which with a release every
 * few milliseconds never ended: each batch was claimed only once the previous
 * one had drained, after the instants of its first runs.
 */
describe('scheduler: a steady stream of runs, each due at its own millisecond', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, SCHEDULER_LOOKAHEAD_MS: String(LOOKAHEAD_MS), SCHEDULER_LEASE_GRACE_MS: '30000', EXECUTION_TIMEOUT_MS: String(EXECUTION_TIMEOUT_MS) });
    db = await SchedulerFixtures.connect(server.database.url);
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  it('claims every run ahead of its instant, fires each once, never before it, and stores each result at once', async () => {
    const owner = await db.user('unlimited');
    const firstDue = Date.now() + LOOKAHEAD_MS + 1_000;
    await db.query(
      `INSERT INTO jobs (account_id, name, url, cron_expression, status, next_run_at)
       SELECT $1, 'stream-' || n, $2 || '?n=' || n, '0 0 1 1 *', 'scheduled', to_timestamp(($3::bigint + (n - 1) * $4) / 1000.0)
       FROM generate_series(1, $5) AS n`,
      [owner, `${target.url}/stream`, firstDue, SPACING_MS, RUNS],
    );
    await target.waitFor(() => target.requests('/stream').length >= RUNS, 30_000);
    const runs = await eventually(async () => {
      const rows = await db.query<{ scheduled_for: Date; created_at: Date; status: string; stored_after_ms: number }>(
        `SELECT r.scheduled_for, r.created_at, r.status,
                extract(epoch FROM r.finished_at - r.executed_at) * 1000 - r.duration_ms AS stored_after_ms
         FROM job_runs r JOIN jobs j ON j.id = r.job_id WHERE j.account_id = $1 AND r.state = 'done'`,
        [owner],
      );
      return rows.length >= RUNS ? rows : null;
    }, 30_000, 'every run recorded');

    const claimedLate = runs.filter((r) => new Date(r.created_at).getTime() >= new Date(r.scheduled_for).getTime());
    const lead = runs.map((r) => new Date(r.scheduled_for).getTime() - new Date(r.created_at).getTime()).sort((a, b) => a - b);
    process.stdout.write(`\nSteady stream: ${RUNS} runs ${SPACING_MS} ms apart, claimed ${lead[0]} to ${lead[lead.length - 1]} ms ahead; ${claimedLate.length} after their instant\n`);
    expect(claimedLate).toEqual([]);
    expect(runs).toHaveLength(RUNS);
    expect(runs.every((r) => r.status === 'success')).toBe(true);
    const storedAfter = runs.map((r) => Number(r.stored_after_ms)).sort((a, b) => a - b);
    process.stdout.write(`Steady stream: results stored ${storedAfter[Math.floor(RUNS / 2)].toFixed(0)} ms (median), ${storedAfter[RUNS - 1].toFixed(0)} ms (last) after their answer\n`);
    expect(storedAfter[RUNS - 1]).toBeLessThan(STORED_WITHIN_MS);

    const arrivals = target.requests('/stream');
    const byRun = new Map(arrivals.map((r) => [Number(new URL(r.path, target.url).searchParams.get('n')), r.arrivedAt]));
    expect(byRun.size).toBe(RUNS);
    expect(arrivals).toHaveLength(RUNS);
    const early = [...byRun].filter(([n, arrivedAt]) => arrivedAt < firstDue + (n - 1) * SPACING_MS);
    expect(early).toEqual([]);
  });
});
