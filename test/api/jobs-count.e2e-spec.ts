import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { AccountsOwnResources1764100100000 } from '../../backend/src/database/migrations/1764100100000-accounts-own-resources';
import { JobCounts1763809800000 } from '../../backend/src/database/migrations/1763809800000-job-counts';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(120_000);

/**
 * job_counts, each user's number of jobs kept by triggers on `jobs` (the
 * plan's job limit reads it under the creation lock): after every kind of
 * write it equals the count of the user's rows.
 */
describe('the job count kept by triggers (job_counts)', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;

  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const create = (who: SignedInAccount, overrides: Record<string, unknown> = {}) => server.http.post('/api/jobs', jobDefinition(overrides), as(who));
  const bulk = (who: SignedInAccount, count: number) => server.http.post('/api/jobs/bulk', { jobs: Array.from({ length: count }, () => jobDefinition()) }, as(who));

  /** The user's counter row (null when there is none) and the count of their rows. */
  async function counts(userId: string): Promise<{ kept: number | null; rows: number }> {
    const [row] = await sql<{ kept: number | null; rows: number }>(
      server,
      `SELECT (SELECT jobs FROM job_counts WHERE account_id = $1) AS kept, (SELECT count(*)::int FROM jobs WHERE account_id = $1) AS rows`,
      [userId],
    );
    return row!;
  }

  /** Asserts the counter equals the rows (no row counts as none) and answers it. */
  async function expectKept(userId: string): Promise<number> {
    const { kept, rows } = await counts(userId);
    expect({ userId, kept: kept ?? 0 }).toEqual({ userId, kept: rows });
    return rows;
  }

  /** Jobs written by SQL, as an operator or a script would; paused, so nothing schedules them. */
  const plant = (userIds: string[], prefix: string) =>
    sql(
      server,
      `INSERT INTO jobs (account_id, name, url, cron_expression, status)
       SELECT u.id, $2 || '-' || n, 'https://example.com/hook', '*/5 * * * *', 'paused'
         FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n)`,
      [userIds, prefix],
    );

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    [alice, bob] = await Promise.all([signUpAndLogin(server), signUpAndLogin(server)]);
    await setPlan(server, alice.userId, 'pro');
    await setPlan(server, bob.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('follows single creations, bulk creations and deletions through the API; a refused creation changes nothing', async () => {
    expect(await counts(alice.userId)).toEqual({ kept: null, rows: 0 });
    for (let i = 0; i < 3; i++) expect((await create(alice)).status).toBe(200);
    expect(await expectKept(alice.userId)).toBe(3);
    expect((await bulk(alice, 7)).status).toBe(200);
    expect(await expectKept(alice.userId)).toBe(10);

    const listed: Array<{ job_id: string; name: string }> = (await server.http.get('/api/jobs', as(alice))).body;
    for (const job of listed.slice(0, 4)) expect((await server.http.delete(`/api/jobs/${job.job_id}`, as(alice))).status).toBe(200);
    expect(await expectKept(alice.userId)).toBe(6);

    // A bulk whose last name is taken rolls back whole; one beyond the plan is refused before inserting.
    const taken = await server.http.post('/api/jobs/bulk', { jobs: [jobDefinition(), jobDefinition({ name: listed[5]!.name })] }, as(alice));
    expect(taken.status).toBe(422);
    expect((await bulk(alice, 45)).status).toBe(403);
    expect(await expectKept(alice.userId)).toBe(6);
  });

  it('follows a transfer of jobs to another account (export, then import) and leaves the exporting account’s count alone', async () => {
    const exported = (await server.http.get('/api/jobs/export', as(alice))).body;
    const before = await expectKept(alice.userId);
    const imported = await server.http.post('/api/jobs/import', { format: 'json', content: JSON.stringify(exported) }, as(bob));
    expect(imported.body).toMatchObject({ created: exported.jobs.length, refused: 0 });
    expect(await expectKept(bob.userId)).toBe(exported.jobs.length);
    expect(await expectKept(alice.userId)).toBe(before);
  });

  it('follows jobs inserted, moved between users and deleted by plain SQL, several users in one statement', async () => {
    const carol = await signUpAndLogin(server);
    const a0 = await expectKept(alice.userId);
    const b0 = await expectKept(bob.userId);

    // Carol's first jobs come from SQL: her counter row is created by the insert.
    await plant([alice.userId, bob.userId, carol.userId, carol.userId, bob.userId], 'planted');
    expect([await expectKept(alice.userId), await expectKept(bob.userId), await expectKept(carol.userId)]).toEqual([a0 + 1, b0 + 2, 2]);

    // An ownership change moves the count; an update that keeps the owner (as the scheduler's do) changes nothing.
    await sql(server, `UPDATE jobs SET account_id = $2, name = name || '-moved' WHERE account_id = $1 AND name LIKE 'planted-%'`, [carol.userId, alice.userId]);
    await sql(server, `UPDATE jobs SET status = 'paused', next_run_at = NULL WHERE account_id = ANY($1::uuid[])`, [[alice.userId, bob.userId, carol.userId]]);
    expect([await expectKept(alice.userId), await expectKept(bob.userId), await expectKept(carol.userId)]).toEqual([a0 + 3, b0 + 2, 0]);
    // Jobs swapping owners in one statement: both counters move in the same statement.
    await sql(
      server,
      `UPDATE jobs SET account_id = CASE WHEN account_id = $1 THEN $2::uuid ELSE $1::uuid END, name = name || '-swapped'
        WHERE name LIKE 'planted-%' AND account_id IN ($1, $2)`,
      [alice.userId, bob.userId],
    );
    expect([await expectKept(alice.userId), await expectKept(bob.userId)]).toEqual([a0 + 2, b0 + 3]);

    await sql(server, `DELETE FROM jobs WHERE name LIKE 'planted-%'`);
    expect([await expectKept(alice.userId), await expectKept(bob.userId), await expectKept(carol.userId)]).toEqual([a0, b0, 0]);
    // A user whose jobs are all gone keeps a zero row (reads as none either way).
    expect((await counts(carol.userId)).kept).toBe(0);
  });

  it('goes with the account: deleting it takes the jobs and the counter row, and other users keep theirs', async () => {
    const dave = await signUpAndLogin(server);
    await setPlan(server, dave.userId, 'basic');
    expect((await bulk(dave, 4)).status).toBe(200);
    const a0 = await expectKept(alice.userId);
    expect(await expectKept(dave.userId)).toBe(4);

    expect((await server.http.delete('/api/account', as(dave))).status).toBe(200);
    expect(await counts(dave.userId)).toEqual({ kept: null, rows: 0 });
    expect(await expectKept(alice.userId)).toBe(a0);

    // The same by SQL (the account deleted), with jobs of another account deleted in the same transaction.
    const erin = await signUpAndLogin(server);
    await plant([erin.userId, erin.userId, alice.userId], 'erin');
    // Deleting the account deletes its audit entries (erin's sign-up): the audit check looks at them first.
    await server.auditCheckpoint();
    await sql(server, `WITH gone AS (DELETE FROM accounts WHERE id = $1) DELETE FROM jobs WHERE name LIKE 'erin-%' AND account_id = $2`, [erin.userId, alice.userId]);
    expect(await counts(erin.userId)).toEqual({ kept: null, rows: 0 });
    expect(await expectKept(alice.userId)).toBe(a0);
  });

  it('holds the plan limit exactly under concurrent creations, counting jobs written by SQL', async () => {
    const frank = await signUpAndLogin(server);
    await setPlan(server, frank.userId, 'basic');
    await plant([frank.userId, frank.userId, frank.userId], 'frank');
    const results = await Promise.all([
      ...Array.from({ length: 16 }, () => create(frank)),
      ...Array.from({ length: 4 }, () => bulk(frank, 2)),
    ]);
    const created = results.filter((r) => r.status === 200).reduce((n, r) => n + (r.body.created ?? 1), 0);
    const refused = results.filter((r) => r.status === 403);
    expect(created).toBe(7);
    expect(refused.length + results.filter((r) => r.status === 200).length).toBe(results.length);
    for (const r of refused) expect(r.body.detail).toMatchObject({ error: 'Job limit exceeded', plan: 'basic', max_jobs: 10 });
    expect(await expectKept(frank.userId)).toBe(10);
    // The 403 reports the kept count.
    expect((await create(frank)).body.detail).toEqual({ error: 'Job limit exceeded', plan: 'basic', job_count: 10, max_jobs: 10 });

    // A freed slot is taken by exactly one of many.
    const [first] = (await server.http.get('/api/jobs', as(frank))).body;
    expect((await server.http.delete(`/api/jobs/${first.job_id}`, as(frank))).status).toBe(200);
    const again = await Promise.all(Array.from({ length: 8 }, () => create(frank)));
    expect(again.map((r) => r.status).sort()).toEqual([200, 403, 403, 403, 403, 403, 403, 403]);
    expect(await expectKept(frank.userId)).toBe(10);
  });

  it('is rebuilt from the jobs by the migration, and its down migration removes it', async () => {
    const client = new Client({ connectionString: server.database.url });
    await client.connect();
    const runner = { query: (text: string) => client.query(text) } as unknown as QueryRunner;
    const migration = new JobCounts1763809800000();
    // The counter was made when jobs had user_id: the accounts' rename (1764100100000) goes back first and comes again after.
    const accounts = new AccountsOwnResources1764100100000();
    const a0 = await expectKept(alice.userId);
    const b0 = await expectKept(bob.userId);
    try {
      await client.query('BEGIN');
      await accounts.down(runner);
      await migration.down(runner);
      const left = await client.query(`SELECT to_regclass('job_counts') AS t, (SELECT count(*)::int FROM pg_trigger WHERE tgname LIKE 'job_counts_%') AS triggers`);
      expect(left.rows[0]).toEqual({ t: null, triggers: 0 });
      // Jobs written while there is no counter are counted by the backfill.
      await client.query(`DELETE FROM jobs WHERE user_id = '${alice.userId}' AND id = (SELECT id FROM jobs WHERE user_id = '${alice.userId}' LIMIT 1)`);
      await migration.up(runner);
      await accounts.up(runner);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      await client.end();
    }
    expect(await expectKept(alice.userId)).toBe(a0 - 1);
    expect(await expectKept(bob.userId)).toBe(b0);
    expect((await create(alice)).status).toBe(200);
    expect(await expectKept(alice.userId)).toBe(a0);
  });

  it('is emptied with the jobs by TRUNCATE (which fires no delete triggers)', async () => {
    expect(await expectKept(alice.userId)).toBeGreaterThan(0);
    await sql(server, `TRUNCATE jobs CASCADE`);
    expect(await sql(server, `SELECT * FROM job_counts`)).toEqual([]);
    expect((await create(alice)).status).toBe(200);
    expect(await expectKept(alice.userId)).toBe(1);
  });
});
