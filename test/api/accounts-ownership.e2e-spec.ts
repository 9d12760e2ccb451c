import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, sql } from './jobs-fixtures';

jest.setTimeout(90_000);

/**
 * Accounts own the resources: a new user's jobs, keys and plan are their
 * personal account's (the user's id), and deleting a user deletes the
 * accounts they own alone with everything in them, but is refused while an
 * account they own has other members (memberships are made in SQL here:
 * inviting members is another step of #36).
 */
describe('accounts own resources', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await signUpAndLogin(server, { name: 'Alice Team' });
    bob = await signUpAndLogin(server, { name: 'Bob' });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('stores what a new user makes under their personal account, whose id is theirs', async () => {
    const job = await server.http.post('/api/jobs', jobDefinition(), { token: alice.accessToken });
    expect(job.status).toBe(200);
    const key = await server.http.post('/api/api-keys/generate', { name: 'ci' }, { token: alice.accessToken });
    expect(key.body).toMatchObject({ user_id: alice.userId, account_id: alice.userId });
    expect(await sql(server, `SELECT account_id FROM jobs WHERE id = $1`, [job.body.job_id])).toEqual([{ account_id: alice.userId }]);
    expect(await sql(server, `SELECT account_id, created_by FROM api_keys WHERE id = $1`, [key.body.key_id])).toEqual([{ account_id: alice.userId, created_by: alice.userId }]);
    expect(await sql(server, `SELECT id, name, personal, plan FROM accounts WHERE id = $1`, [alice.userId])).toEqual([{ id: alice.userId, name: 'Alice Team', personal: true, plan: 'free' }]);
    // The key acts in the account: X-User-ID names it.
    const listed = await server.http.get('/prog/jobs', { headers: { 'x-api-key': key.body.api_key, 'x-user-id': key.body.user_id } });
    expect(listed.body.map((j: { job_id: string }) => j.job_id)).toEqual([job.body.job_id]);
  });

  it('refuses to delete a user who owns an account with other members, and deletes nothing', async () => {
    await sql(server, `INSERT INTO account_members (account_id, user_id, role) VALUES ($1, $2, 'editor')`, [alice.userId, bob.userId]);
    const refused = await server.http.delete('/api/account', { token: alice.accessToken });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'Transfer ownership of Alice Team before deleting your account' });
    expect(await sql(server, `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1`, [alice.userId])).toEqual([{ n: 1 }]);
    expect((await server.http.get('/api/account', { token: alice.accessToken })).status).toBe(200);
  });

  it('deleting a member leaves the account they belong to, with its resources; deleting its owner, now alone, deletes it', async () => {
    const bobJob = await server.http.post('/api/jobs', jobDefinition(), { token: bob.accessToken });
    expect(bobJob.status).toBe(200);
    expect((await server.http.delete('/api/account', { token: bob.accessToken })).status).toBe(200);
    expect(await sql(server, `SELECT count(*)::int AS n FROM accounts WHERE id = $1`, [bob.userId])).toEqual([{ n: 0 }]);
    expect(await sql(server, `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1`, [bob.userId])).toEqual([{ n: 0 }]);
    expect(await sql(server, `SELECT user_id FROM account_members WHERE account_id = $1`, [alice.userId])).toEqual([{ user_id: alice.userId }]);
    expect(await sql(server, `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1`, [alice.userId])).toEqual([{ n: 1 }]);

    expect((await server.http.delete('/api/account', { token: alice.accessToken })).status).toBe(200);
    for (const table of ['jobs', 'api_keys', 'usage_periods', 'job_counts']) {
      expect({ table, left: await sql(server, `SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [alice.userId]) }).toEqual({ table, left: [{ n: 0 }] });
    }
    expect(await sql(server, `SELECT count(*)::int AS n FROM accounts WHERE id = $1`, [alice.userId])).toEqual([{ n: 0 }]);
  });
});
