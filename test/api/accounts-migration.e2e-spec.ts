import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../backend/src/database/migrations';
import { JobScheduleForms1764000000000 } from '../../backend/src/database/migrations/1764000000000-job-schedule-forms';
import { generateApiKeySecret, hashApiKeySecret, visiblePrefix } from '../../backend/src/modules/api-keys/api-key-secret';
import { hashPassword } from '../../backend/src/modules/auth/local/password-hasher';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';

jest.setTimeout(120_000);

/** Every table holding a resource: a user's before accounts, an account's after. */
const RESOURCE_TABLES = ['jobs', 'job_runs', 'job_counts', 'usage_periods', 'monitors', 'alert_channels', 'api_keys', 'billing_customers', 'billing_subscriptions', 'n8n_deployments', 'maintenance_windows', 'status_pages', 'status_badges', 'status_incident_notes'];

interface Owner {
  id: string;
  email: string;
  password: string;
  apiKey: string;
  jobIds: string[];
}

/**
 * Accounts own what users owned (on the embedded database, or on PostgreSQL
 * with TEST_DATABASE_URL): a database of the release before accounts, with
 * users holding jobs, runs, keys, monitors, channels, usage and a
 * subscription, is migrated; every row keeps its id and lands in the user's
 * personal account (same id), old keys keep working on /prog with the same
 * X-User-ID and see exactly their jobs, the plan and subscription are the
 * account's; down and up again lose nothing.
 */
describe('accounts own resources: the migration of an existing database', () => {
  let database: TestDatabase;
  let client: Client;
  let server: TestServer | undefined;
  const owners: Owner[] = [];
  let before: Map<string, unknown[]>;

  /** Every row of every resource table, as the database spells it, the owner column named user_id whichever it is. */
  const snapshot = async (): Promise<Map<string, unknown[]>> => {
    const tables = new Map<string, unknown[]>();
    for (const table of RESOURCE_TABLES) {
      const rows = (await client.query(`SELECT row_to_json(t)::jsonb AS row FROM ${table} t`)).rows.map((r) => {
        const { account_id, created_by: _createdBy, ...rest } = r.row as Record<string, unknown>;
        return account_id === undefined ? r.row : { ...rest, user_id: account_id };
      });
      tables.set(table, rows.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort());
    }
    const users = (await client.query(`SELECT id, email, name, password_hash, email_verified, created_at FROM users ORDER BY id`)).rows;
    tables.set('users', users.map((u) => JSON.stringify(u)));
    return tables;
  };
  const plansByUser = async (): Promise<Record<string, string>> => {
    const hasPlan = (await client.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'plan'`)).rows.length > 0;
    const rows = (await client.query(hasPlan ? `SELECT id, plan FROM users` : `SELECT id, plan FROM accounts`)).rows;
    return Object.fromEntries(rows.map((r) => [r.id, r.plan]));
  };
  const migrations = (list: typeof MIGRATIONS) =>
    new DataSource({ type: 'postgres', url: database.url, migrations: list, migrationsTransactionMode: 'each', installExtensions: false, uuidExtension: 'pgcrypto', poolSize: 1 });

  beforeAll(async () => {
    database = await createTestDatabase(8);
    // The release before accounts: every migration up to the schedule forms, in the list's order.
    const previous = migrations(MIGRATIONS.slice(0, MIGRATIONS.indexOf(JobScheduleForms1764000000000) + 1));
    await previous.initialize();
    await previous.runMigrations();
    await previous.destroy();
    client = new Client({ connectionString: database.url });
    await client.connect();

    for (const [n, plan] of [
      [1, 'pro'],
      [2, 'free'],
    ] as const) {
      const password = `Pw-migrated-${n}-secret`;
      const email = `owner${n}@example.test`;
      const [{ id }] = (
        await client.query(`INSERT INTO users (email, name, password_hash, email_verified, plan) VALUES ($1, $2, $3, true, $4) RETURNING id`, [email, `Owner ${n}`, await hashPassword(password), plan])
      ).rows;
      const jobIds: string[] = [];
      for (let j = 0; j < n + 1; j++) {
        const [{ id: jobId }] = (
          await client.query(`INSERT INTO jobs (user_id, name, url, cron_expression) VALUES ($1, $2, 'https://example.com/hook', '0 0 1 1 *') RETURNING id`, [id, `owner${n}-job${j}`])
        ).rows;
        jobIds.push(jobId);
        await client.query(
          `INSERT INTO job_runs (job_id, user_id, trigger, scheduled_for, due_at, state, status, executed_at, finished_at, response_code, duration_ms)
           VALUES ($1, $2, 'schedule', now() - interval '1 day', now() - interval '1 day', 'done', 'success', now() - interval '1 day', now() - interval '1 day', 200, 12)`,
          [jobId, id],
        );
      }
      const apiKey = generateApiKeySecret();
      await client.query(`INSERT INTO api_keys (user_id, name, prefix, secret_hash) VALUES ($1, 'old key', $2, $3)`, [id, visiblePrefix(apiKey), hashApiKeySecret(apiKey)]);
      await client.query(`INSERT INTO monitors (user_id, name, token, grace_seconds, period_seconds) VALUES ($1, $2, $3, 60, 3600)`, [id, `owner${n}-monitor`, `tok${n}${'x'.repeat(20)}`]);
      await client.query(`INSERT INTO alert_channels (user_id, name, kind, target, verified_at) VALUES ($1, 'mail', 'email', $2, now())`, [id, email]);
      await client.query(`INSERT INTO usage_periods (user_id, period_start, executions) VALUES ($1, date_trunc('month', now())::date, $2)`, [id, 10 * n]);
      await client.query(`INSERT INTO maintenance_windows (user_id, name, starts_at, ends_at) VALUES ($1, 'upgrade', now() + interval '1 day', now() + interval '2 days')`, [id]);
      owners.push({ id, email, password, apiKey, jobIds });
    }
    const paying = owners[0].id;
    await client.query(`INSERT INTO billing_customers (user_id, stripe_customer_id) VALUES ($1, 'cus_migrated')`, [paying]);
    await client.query(
      `INSERT INTO billing_subscriptions (stripe_subscription_id, user_id, stripe_status, plan, billing_interval, created, current_period_start, current_period_end)
       VALUES ('sub_migrated', $1, 'active', 'pro', 'month', 1700000000, extract(epoch from now())::bigint - 86400, extract(epoch from now())::bigint + 86400 * 20)`,
      [paying],
    );
    before = await snapshot();
    expect(before.get('jobs')).toHaveLength(5);
    expect(before.get('job_counts')).toHaveLength(2);

    // The rest: the accounts, and the resources moving to them.
    const rest = migrations(MIGRATIONS);
    await rest.initialize();
    await rest.runMigrations();
    await rest.destroy();
  });

  afterAll(async () => {
    await server?.close();
    await client?.end();
    await database?.drop();
  });

  it('keeps every row with its id, owned by the personal account of its user (the same id), and the plan is the account’s', async () => {
    expect(await snapshot()).toEqual(before);
    const accounts = (await client.query(`SELECT id, name, personal, plan FROM accounts ORDER BY name`)).rows;
    expect(accounts).toEqual([
      { id: owners[0].id, name: 'Owner 1', personal: true, plan: 'pro' },
      { id: owners[1].id, name: 'Owner 2', personal: true, plan: 'free' },
    ]);
    const members = (await client.query(`SELECT account_id, user_id, role FROM account_members ORDER BY role, account_id`)).rows;
    expect(members).toEqual(expect.arrayContaining(owners.map((o) => ({ account_id: o.id, user_id: o.id, role: 'owner' }))));
    expect(members).toHaveLength(2);
    // Old keys were made by the personal account's user.
    expect((await client.query(`SELECT account_id, created_by FROM api_keys`)).rows.every((r) => r.account_id === r.created_by)).toBe(true);
    // No resource table names a user any more; the plan lives on the account alone.
    const left = (await client.query(`SELECT table_name FROM information_schema.columns WHERE column_name = 'user_id' AND table_name = ANY($1::text[])`, [RESOURCE_TABLES])).rows;
    expect(left).toEqual([]);
    expect((await client.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'plan'`)).rows).toEqual([]);
    // The job counter follows the account: a job inserted now is counted on it.
    await client.query(`INSERT INTO jobs (account_id, name, url, cron_expression) VALUES ($1, 'counted', 'https://example.com/hook', '0 0 1 1 *')`, [owners[1].id]);
    expect((await client.query(`SELECT jobs FROM job_counts WHERE account_id = $1`, [owners[1].id])).rows).toEqual([{ jobs: 4 }]);
    await client.query(`DELETE FROM jobs WHERE name = 'counted'`);
    expect((await client.query(`SELECT jobs FROM job_counts WHERE account_id = $1`, [owners[1].id])).rows).toEqual([{ jobs: 3 }]);
  });

  it('serves the migrated data: old keys authenticate on /prog with their X-User-ID and list exactly their jobs; plan and subscription are the account’s', async () => {
    server = await startTestServer({}, database);
    for (const owner of owners) {
      const viaHeaders = await server.http.get('/prog/jobs', { headers: { 'x-api-key': owner.apiKey, 'x-user-id': owner.id } });
      expect(viaHeaders.status).toBe(200);
      expect(viaHeaders.body.map((j: { job_id: string }) => j.job_id).sort()).toEqual([...owner.jobIds].sort());
      const viaBearer = await server.http.get('/prog/monitors', { headers: { authorization: `Bearer ${owner.apiKey}` } });
      expect(viaBearer.status).toBe(200);
      expect(viaBearer.body.map((m: { name: string }) => m.name)).toEqual([`${owner.email.split('@')[0]}-monitor`]);
      // Another owner's id with this key is refused, as before.
      const other = owners.find((o) => o !== owner)!;
      expect((await server.http.get('/prog/jobs', { headers: { 'x-api-key': owner.apiKey, 'x-user-id': other.id } })).status).toBe(401);
      const logs = await server.http.get(`/prog/jobs/${owner.jobIds[0]}/logs`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
      expect(logs.status).toBe(200);
      expect(logs.body.logs).toHaveLength(1);

      const login = await server.http.post('/api/auth/login', { email: owner.email, password: owner.password });
      expect(login.status).toBe(200);
      const token = login.body.access_token as string;
      const channels = await server.http.get('/api/alert-channels', { token });
      expect(channels.body.map((c: { target: string }) => c.target)).toEqual([owner.email]);
      const keys = await server.http.get('/api/api-keys', { token });
      expect(keys.body.map((k: { name: string }) => k.name)).toEqual(['old key']);
      const windows = await server.http.get('/api/maintenance-windows', { token });
      expect(windows.body.map((w: { name: string }) => w.name)).toEqual(['upgrade']);
    }
    const [paying, free] = await Promise.all(
      owners.map(async (owner) => (await server!.http.post('/api/auth/login', { email: owner.email, password: owner.password })).body.access_token as string),
    );
    expect((await server.http.get('/api/account', { token: paying })).body).toMatchObject({ user_id: owners[0].id, plan: 'pro' });
    expect((await server.http.get('/api/profile/stats', { token: paying })).body).toMatchObject({ plan: 'pro', subscription_id: 'sub_migrated', subscription_status: 'active', interval: 'month' });
    expect((await server.http.get('/api/profile/stats', { token: free })).body).toMatchObject({ plan: 'free', subscription_id: null });
    const dashboard = await server.http.get('/api/dashboard', { token: paying });
    expect(dashboard.body).toMatchObject({ plan: 'pro', executions_used: 10, job_count: 3, total_monitors: 1 });
    await server.close();
    server = undefined;
  });

  it('converts back and forth without losing a row', async () => {
    // As the app left it (the keys' last use is recorded now).
    const served = await snapshot();
    const planned = await plansByUser();
    const source = migrations(MIGRATIONS);
    await source.initialize();
    try {
      // Undone newest first: down to this one (the audit log's, which references accounts, is newer).
      const executed = async () => (await source.query(`SELECT name FROM migrations ORDER BY timestamp DESC LIMIT 1`))[0].name as string;
      while ((await executed()) !== 'AccountsOwnResources1764100100000') await source.undoLastMigration({ transaction: 'each' });
      await source.undoLastMigration({ transaction: 'each' });
      expect(await executed()).not.toBe('AccountsOwnResources1764100100000');
      expect(await snapshot()).toEqual(served);
      expect(await plansByUser()).toEqual(planned);
      expect((await client.query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE column_name = 'account_id' AND table_name = ANY($1::text[])`, [RESOURCE_TABLES])).rows[0].n).toBe(0);
      await source.runMigrations();
      expect(await snapshot()).toEqual(served);
      expect(await plansByUser()).toEqual(planned);
    } finally {
      await source.destroy();
    }
  });
});
