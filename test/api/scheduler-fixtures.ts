import { Client } from 'pg';

/**
 * Direct database access for scheduler tests: the scheduler reads users and
 * jobs from the database, so tests may create them with SQL and read the run
 * records it writes.
 */
export class SchedulerFixtures {
  private constructor(private readonly client: Client) {}

  static async connect(url: string): Promise<SchedulerFixtures> {
    const client = new Client({ connectionString: url });
    await client.connect();
    return new SchedulerFixtures(client);
  }

  /**
   * Parameters are inlined as escaped literals so every statement is one
   * simple-protocol message: the embedded database multiplexes all
   * connections onto one session and would interleave the several messages
   * of an extended-protocol query with the application's own.
   */
  query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
    const text = sql.replace(/\$(\d+)/g, (_m, n: string) => literal(params[Number(n) - 1]));
    return this.client.query(text).then((r) => r.rows as T[]);
  }

  async user(plan = 'free'): Promise<string> {
    const [row] = await this.query<{ id: string }>(
      `WITH u AS (INSERT INTO users (email, name) VALUES ('u-' || gen_random_uuid() || '@example.com', 'Test') RETURNING id, name),
            a AS (INSERT INTO accounts (id, name, personal, plan) SELECT id, name, true, $1 FROM u),
            m AS (INSERT INTO account_members (account_id, user_id, role) SELECT id, id, 'owner' FROM u)
       SELECT id FROM u`,
      [plan],
    );
    return row.id;
  }

  async job(
    userId: string,
    job: { url: string; nextRunAt: Date | null; cron?: string; method?: string; headers?: Record<string, string>; body?: string; status?: string; notifyOnFailure?: boolean },
  ): Promise<string> {
    const [row] = await this.query<{ id: string }>(
      `INSERT INTO jobs (account_id, name, url, method, headers, body, cron_expression, status, notify_on_failure, next_run_at)
       VALUES ($1, 'job-' || substr(md5(random()::text), 1, 12), $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [userId, job.url, job.method ?? 'GET', JSON.stringify(job.headers ?? {}), job.body ?? '', job.cron ?? '0 0 1 1 *', job.status ?? 'pending', job.notifyOnFailure ?? false, job.nextRunAt],
    );
    return row.id;
  }

  runs(jobId: string): Promise<any[]> {
    return this.query(`SELECT * FROM job_runs WHERE job_id = $1 ORDER BY scheduled_for, attempt`, [jobId]);
  }

  async jobRow(jobId: string): Promise<any> {
    const [row] = await this.query(`SELECT * FROM jobs WHERE id = $1`, [jobId]);
    return row;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** Polls `check` until it returns a truthy value, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Waits until the scheduler has run a sentinel job due `afterMs` from now (to
 * `url`) and recorded it, then deletes the sentinel. Whatever the scheduler
 * would have fired before that instant (a retry, a second firing, a withdrawn
 * run) has been fired by then: a test that checks that something did NOT
 * happen waits for this event instead of a fixed sleep, which is too short on
 * a busy machine and needlessly long on a quiet one.
 */
export async function schedulerPassed(db: SchedulerFixtures, url: string, afterMs: number): Promise<void> {
  const owner = await db.user('unlimited');
  const jobId = await db.job(owner, { url, cron: '0 0 1 1 *', nextRunAt: new Date(Date.now() + Math.max(0, afterMs)) });
  await eventually(async () => (await db.runs(jobId)).some((r) => r.state === 'done'), 30_000 + afterMs, 'sentinel run recorded');
  await db.query(`DELETE FROM jobs WHERE id = $1`, [jobId]);
}

/**
 * An hourly schedule due at the minute half an hour from now, and its latest due time. Outage tests use it
 * instead of an every-minute one: its next due time is about 30 minutes away, so no new due time (rightly
 * fired) can fall within the test, whenever in a minute it starts.
 */
export function hourlyScheduleAwayFromNow(now = Date.now()): { cron: string; lastDue: number; hour: number } {
  const hour = 3_600_000;
  const dueMinute = (new Date(now).getUTCMinutes() + 30) % 60;
  const inThisHour = Math.floor(now / hour) * hour + dueMinute * 60_000;
  return { cron: `${dueMinute} * * * *`, lastDue: inThisHour <= now ? inThisHour : inThisHour - hour, hour };
}

/** Settings for fast, deterministic scheduler tests. */
export const FAST_SCHEDULER_ENV: Record<string, string> = {
  SCHEDULER_ENABLED: 'true',
  ALLOW_PRIVATE_TARGETS: 'true',
  SCHEDULER_POLL_INTERVAL_MS: '100',
  SCHEDULER_LOOKAHEAD_MS: '400',
  SCHEDULER_LEASE_GRACE_MS: '500',
  EXECUTION_TIMEOUT_MS: '1000',
  RETRY_BACKOFF_BASE_MS: '100',
  HOUSEKEEPING_INTERVAL_MS: '100',
};
