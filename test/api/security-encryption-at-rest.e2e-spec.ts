import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { masterKeyId } from '../../backend/src/common/crypto/secret-box';
import { MIGRATIONS } from '../../backend/src/database/migrations';
import { SealedJobHeaders1763810400000 } from '../../backend/src/database/migrations/1763810400000-sealed-job-headers';
import { AlertReceiver } from '../fakes/alert-receiver';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { runServerProcess, startServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { Authenticator } from '../support/totp-authenticator';
import { setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import { FAST_SCHEDULER_ENV } from './scheduler-fixtures';
import { until } from '../support/until';

jest.setTimeout(180_000);

const KEY_A = randomBytes(32);
const KEY_B = randomBytes(32);
const b64 = (key: Buffer) => key.toString('base64');

/** Runs one statement on its own connection (one simple-protocol message: safe beside the embedded server's sessions). */
async function query<T = Record<string, unknown>>(database: TestDatabase, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Every text-like value of every table, as a dump would show it: text,
 * varchar, JSON, arrays and bytea (decoded), one line per value.
 */
async function dumpDatabase(database: TestDatabase): Promise<string> {
  const columns = await query<{ table_name: string; column_name: string; data_type: string }>(
    database,
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = 'public' AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'bytea', 'USER-DEFINED')`,
  );
  expect(columns.length).toBeGreaterThan(20);
  const lines: string[] = [];
  for (const { table_name: table, column_name: column, data_type: type } of columns) {
    const value = type === 'bytea' ? `encode("${column}", 'escape')` : `"${column}"::text`;
    const rows = await query<{ v: string | null }>(database, `SELECT ${value} AS v FROM "${table}"`);
    for (const row of rows) if (row.v !== null) lines.push(`${table}.${column}: ${row.v}`);
  }
  return lines.join('\n');
}

function expectAbsent(dump: string, secrets: string[]): void {
  const lower = dump.toLowerCase();
  for (const secret of secrets) {
    const at = lower.indexOf(secret.toLowerCase());
    // On failure, show where it was found.
    expect(at === -1 ? null : dump.slice(Math.max(0, at - 80), at + secret.length + 20)).toBeNull();
  }
}


/**
 * Secrets at rest: a dump of the database shows none of the jobs' header
 * values, authenticator secrets, webhook signing secrets or the token
 * signing key, while the owner is answered and the jobs fire as before; a
 * server with another master key cannot read them, one given the old key as
 * previous can, and re-wraps them under the new key at start.
 */
describe('secrets are encrypted at rest', () => {
  let database: TestDatabase;
  let server: TestServer | undefined;
  let target: HttpTarget;
  let receiver: AlertReceiver;
  let owner: SignedInAccount;
  let app: Authenticator;
  let jobId: string;
  let legacyJobId: string;
  let channelId: string;
  let signingSecret: string;
  const headerSecret = `Bearer tok_${randomBytes(12).toString('hex')}`;
  const apiKeySecret = `key_${randomBytes(12).toString('hex')}`;
  const headers = { Authorization: headerSecret, 'X-Api-Key': apiKeySecret };
  const bulkSecret = `bulk_${randomBytes(8).toString('hex')}`;
  const updatedSecret = `updated_${randomBytes(8).toString('hex')}`;
  const as = () => ({ token: owner.accessToken });

  const start = async (env: Record<string, string>) => {
    await server?.close();
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env }, database);
    return server;
  };
  const sealedValues = async () =>
    query<{ v: string }>(
      database,
      `SELECT headers AS v FROM jobs WHERE headers <> '{}'
       UNION ALL SELECT totp_secret FROM account_security WHERE totp_secret IS NOT NULL
       UNION ALL SELECT secret FROM alert_channels WHERE secret IS NOT NULL
       UNION ALL SELECT private_key_pem FROM signing_keys`,
    );

  beforeAll(async () => {
    target = await HttpTarget.start();
    receiver = await AlertReceiver.start();
    database = await createTestDatabase(5, { migrated: true });
    await start({ ENCRYPTION_KEY: b64(KEY_A) });
    owner = await signUpAndLogin(server!);

    const setup = await server!.http.post('/api/auth/mfa/totp/setup', undefined, as());
    expect(setup.status).toBe(200);
    app = new Authenticator(setup.body.secret);
    expect((await server!.http.post('/api/auth/mfa/totp/enable', { code: await app.nextCode() }, as())).status).toBe(200);

    const job = await server!.http.post(
      '/api/jobs',
      { name: 'with-credentials', url: `${target.url}/hook`, method: 'POST', headers, body: 'ping', cron_expression: '0 0 1 1 *' },
      as(),
    );
    expect(job.status).toBe(200);
    jobId = job.body.job_id;
    legacyJobId = (await server!.http.post('/api/jobs', { name: 'legacy', url: `${target.url}/legacy`, cron_expression: '0 0 1 1 *' }, as())).body.job_id;

    const channel = await server!.http.post('/api/alert-channels', { name: 'signed', kind: 'webhook', target: receiver.url('/signed') }, as());
    expect(channel.status).toBe(200);
    channelId = channel.body.channel_id;
    signingSecret = channel.body.secret;
    expect(signingSecret).toMatch(/^whsec_/);
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await target?.close();
    await receiver?.close();
  });

  it('a dump of the database shows none of the secrets, whichever way a job got its headers', async () => {
    // Every path that writes headers: create (above), clone, bulk creation, update.
    await setPlan(server!, owner.userId, 'pro');
    const clone = await server!.http.post(`/api/jobs/${jobId}/clone`, { name: 'cloned' }, as());
    expect(clone.body).toMatchObject({ headers });
    const bulk = await server!.http.post('/api/jobs/bulk', { jobs: [{ name: 'bulk', url: `${target.url}/bulk`, cron_expression: '0 0 1 1 *', headers: { 'X-Bulk': bulkSecret } }] }, as());
    expect(bulk.status).toBe(200);
    const updated = await server!.http.put(`/api/jobs/${clone.body.job_id}`, { name: 'cloned', url: `${target.url}/cloned`, cron_expression: '0 0 1 1 *', headers: { 'X-Updated': updatedSecret } }, as());
    expect(updated.body.headers).toEqual({ 'X-Updated': updatedSecret });
    expect((await server!.http.get(`/api/jobs/${clone.body.job_id}`, as())).body.headers).toEqual({ 'X-Updated': updatedSecret });

    const dump = await dumpDatabase(database);
    // The dump does hold the rows: the job and the channel are there by name.
    expect(dump).toContain('with-credentials');
    expect(dump).toContain('jobs.headers: cb1.');
    expectAbsent(dump, [headerSecret, apiKeySecret, bulkSecret, updatedSecret, app.secret, signingSecret, 'PRIVATE KEY']);
    expect(await sealedValues()).toHaveLength(6);
    for (const { v } of await sealedValues()) expect(v.startsWith(`cb1.${masterKeyId(KEY_A)}.`)).toBe(true);
  });

  it('answers the owner as before, and the job fires with its headers (now, and on its schedule)', async () => {
    const job = await server!.http.get(`/api/jobs/${jobId}`, as());
    expect(job.body.headers).toEqual(headers);
    expect((await server!.http.get('/api/jobs', as())).body.find((j: { job_id: string }) => j.job_id === jobId).headers).toEqual(headers);

    const run = await server!.http.post(`/api/jobs/${jobId}/run`, undefined, as());
    expect(run.body).toMatchObject({ status: 'success' });
    expect(target.requests('/hook')[0]!.headers).toMatchObject({ authorization: headerSecret, 'x-api-key': apiKeySecret });

    // Due now: the scheduler's own read of the job (its claim batch) fires it.
    await query(database, `UPDATE jobs SET next_run_at = now() WHERE id = '${jobId}'`);
    await target.waitFor(() => target.requests('/hook').length >= 2);
    expect(target.requests('/hook')[1]!.headers).toMatchObject({ authorization: headerSecret, 'x-api-key': apiKeySecret });

    const test = await server!.http.post(`/api/alert-channels/${channelId}/test`, undefined, as());
    expect(test.body).toMatchObject({ status: 'delivered' });
    expect(AlertReceiver.verifySignature(receiver.received('/signed').at(-1)!, signingSecret)).toBe(true);
  });

  it('a server with another master key cannot read them: a clear 503, and the log names the keys', async () => {
    const other = await start({ ENCRYPTION_KEY: b64(KEY_B) });
    const job = await other.http.get(`/api/jobs/${jobId}`, as());
    expect(job.status).toBe(503);
    expect(job.body.detail).toMatch(/cannot be decrypted with this server's encryption key/);
    expect(job.text).not.toContain(headerSecret);
    const log = await until(
      async () => other.logs.text(),
      (text) => text.includes(`sealed under master key ${masterKeyId(KEY_A)}`) || text.includes(`master key id(s): ${masterKeyId(KEY_A)}`),
    );
    expect(log).toContain('ENCRYPTION_KEYS_PREVIOUS');
    // Nothing was overwritten: the values are still sealed under the key that can read them.
    for (const { v } of await sealedValues()) expect(v.startsWith(`cb1.${masterKeyId(KEY_A)}.`)).toBe(true);

    // Due now on this server: the run fails unsent rather than reaching the target stripped of its credentials.
    const sentBefore = target.requests('/hook').length;
    await query(database, `UPDATE jobs SET next_run_at = now() WHERE id = '${jobId}'`);
    const [run] = await until(
      () => query<{ status: string; error_message: string }>(database, `SELECT status, error_message FROM job_runs WHERE job_id = '${jobId}' AND trigger = 'schedule' AND status = 'failed'`),
      (rows) => rows.length > 0,
    );
    expect(run!.error_message).toMatch(/^Not sent: the job's stored headers cannot be decrypted/);
    expect(target.requests('/hook')).toHaveLength(sentBefore);
  });

  it('with the old key as previous it reads them and re-wraps them under the new key; clear values left by an upgrade get sealed', async () => {
    // A value written before encryption existed, as the column migration leaves it.
    const legacySecret = `legacy_${randomBytes(8).toString('hex')}`;
    await query(database, `UPDATE jobs SET headers = '{"x-legacy":"${legacySecret}"}' WHERE id = '${legacyJobId}'`);

    const rotated = await start({ ENCRYPTION_KEY: b64(KEY_B), ENCRYPTION_KEYS_PREVIOUS: b64(KEY_A) });
    expect((await rotated.http.get(`/api/jobs/${jobId}`, as())).body.headers).toEqual(headers);
    const newPrefix = `cb1.${masterKeyId(KEY_B)}.`;
    await until(sealedValues, (rows) => rows.length === 7 && rows.every(({ v }) => v.startsWith(newPrefix)));
    await until(async () => rotated.logs.text(), (text) => text.includes('ENCRYPTION_KEYS_PREVIOUS is no longer needed'));
    expectAbsent(await dumpDatabase(database), [legacySecret, headerSecret, apiKeySecret, bulkSecret, updatedSecret, app.secret, signingSecret, 'PRIVATE KEY']);

    // Without the old key now: everything still reads, signs and fires.
    const after = await start({ ENCRYPTION_KEY: b64(KEY_B) });
    expect((await after.http.get(`/api/jobs/${jobId}`, as())).body.headers).toEqual(headers);
    expect((await after.http.get(`/api/jobs/${legacyJobId}`, as())).body.headers).toEqual({ 'x-legacy': legacySecret });
    const fresh = await signUpAndLogin(after);
    expect(fresh.accessToken).toEqual(expect.any(String));
    expect((await after.http.post('/api/auth/mfa/recovery-codes', { code: await app.nextCode() }, as())).status).toBe(200);
    const run = await after.http.post(`/api/jobs/${jobId}/run`, undefined, as());
    expect(run.body).toMatchObject({ status: 'success' });
    expect(target.requests('/hook').at(-1)!.headers).toMatchObject({ authorization: headerSecret });
    expect((await after.http.post(`/api/alert-channels/${channelId}/test`, undefined, as())).body).toMatchObject({ status: 'delivered' });
    expect(AlertReceiver.verifySignature(receiver.received('/signed').at(-1)!, signingSecret)).toBe(true);
  });
});

describe('the headers column migration', () => {
  it('keeps the existing headers, as text the start-up sweep then seals', async () => {
    const database = await createTestDatabase(2);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { DataSource } = await import('typeorm');
      const before = MIGRATIONS.filter((m) => m !== SealedJobHeaders1763810400000);
      const source = new DataSource({ type: 'postgres', url: database.url, migrations: before, migrationsTransactionMode: 'each', installExtensions: false, uuidExtension: 'pgcrypto', poolSize: 1 });
      await source.initialize();
      await source.runMigrations();
      await source.destroy();
      const [user] = (await client.query(`INSERT INTO users (email, name) VALUES ('m@example.test', 'M') RETURNING id`)).rows;
      await client.query(`INSERT INTO accounts (id, name, personal) VALUES ($1, 'M', true)`, [user.id]);
      await client.query(
        `INSERT INTO jobs (account_id, name, url, cron_expression, headers) VALUES ('${user.id}', 'old', 'https://example.com/', '* * * * *', '{"authorization":"Bearer old"}'::jsonb)`,
      );
      await client.query(`INSERT INTO jobs (account_id, name, url, cron_expression) VALUES ('${user.id}', 'none', 'https://example.com/', '* * * * *')`);
      await new SealedJobHeaders1763810400000().up({ query: (sql: string) => client.query(sql) } as unknown as QueryRunner);
      const rows = (await client.query(`SELECT name, headers, pg_typeof(headers)::text AS type FROM jobs ORDER BY name`)).rows;
      expect(rows).toEqual([
        { name: 'none', headers: '{}', type: 'text' },
        { name: 'old', headers: '{"authorization": "Bearer old"}', type: 'text' },
      ]);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});

describe('the master key at start-up', () => {
  it('production refuses to start without ENCRYPTION_KEY, saying how to make one', async () => {
    const run = runServerProcess({ NODE_ENV: 'production' });
    expect(await run.exitCode()).toBe(78);
    expect(run.output()).toMatch(/ENCRYPTION_KEY: required when NODE_ENV=production .*openssl rand -base64 32/);
  });

  it('refuses a key that is not 32 bytes of base64, without echoing it', async () => {
    const bad = randomBytes(24).toString('base64');
    const run = runServerProcess({ NODE_ENV: 'production', ENCRYPTION_KEY: bad });
    expect(await run.exitCode()).toBe(78);
    expect(run.output()).toContain('ENCRYPTION_KEY: expected 32 random bytes in base64');
    expect(run.output()).not.toContain(bad);
  });

  it('development without a key generates one under DATA_DIR (owner-only) and says so loudly', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-key-'));
    // On a free port (a random one can be taken), failing with the server's output if it exits or never becomes ready.
    const run = await startServerProcess({ DATA_DIR: dataDir });
    try {
      const file = path.join(dataDir, 'encryption.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
      expect(run.output()).toContain(`ENCRYPTION_KEY is not set: secrets in the database are encrypted with the key in ${file}`);
    } finally {
      run.child.kill('SIGTERM');
      await run.exitCode();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
