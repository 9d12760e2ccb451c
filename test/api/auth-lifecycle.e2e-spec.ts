import { Client } from 'pg';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { codeIn, SmtpListener } from '../fakes/smtp-listener';
import { startTestServer, type TestServer } from '../support/test-server';

// The api project's testTimeout is not applied to single-file runs; booting on the embedded database takes seconds.
jest.setTimeout(60_000);

/**
 * The whole life of a local account over HTTP, with mail delivered over real
 * SMTP: sign up, verify, sign in, refresh (rotation and replay detection),
 * change password, logout, forgot/reset, delete.
 */
describe('local identity life cycle (mail over SMTP)', () => {
  let smtp: SmtpListener;
  let server: TestServer;
  let db: Client;
  /** Every secret the test handles; none may appear in the server's logs. */
  const secrets: string[] = [];

  beforeAll(async () => {
    smtp = await new SmtpListener().start();
    server = await startTestServer({ SMTP_URL: smtp.url });
    db = new Client({ connectionString: server.database.url });
    await db.connect();
    secrets.push(smtp.password);
  });
  afterAll(async () => {
    await db?.end();
    await server?.close();
    await smtp?.stop();
  });

  const email = 'grace@example.test';
  let password = 'compiler-A0';

  it('runs sign-up to account deletion', async () => {
    secrets.push(password);
    const signup = await server.http.post('/api/auth/signup', { name: 'Grace Hopper', email, password });
    expect(signup.status).toBe(201);
    const userId: string = signup.body.user_id;

    // The code arrives over SMTP, not in the dev outbox.
    const mail = await smtp.waitForMail(email);
    expect(mail.raw).toMatch(/^Subject: Verify your email for Cronbeam$/m);
    const code = codeIn(mail);
    secrets.push(code);
    expect((await server.http.get('/api/dev/outbox')).body).toEqual([]);
    // Only a hash of the code is stored.
    const stored = await db.query(`SELECT code_hash FROM verification_codes WHERE user_id = $1`, [userId]);
    expect(stored.rows[0].code_hash).not.toContain(code);

    expect((await server.http.post('/api/auth/verify', { email, code })).status).toBe(200);

    const login = await server.http.post('/api/auth/login', { email, password });
    expect(login.status).toBe(200);
    let tokens = login.body;
    secrets.push(tokens.access_token, tokens.id_token, tokens.refresh_token);
    expect((await server.http.get('/api/account', { token: tokens.access_token })).status).toBe(200);
    // Refresh tokens are stored hashed.
    const hashes = await db.query(`SELECT token_hash FROM refresh_tokens WHERE user_id = $1`, [userId]);
    expect(hashes.rows.map((r) => r.token_hash)).not.toContain(tokens.refresh_token);

    // Refresh rotates: a new refresh token, new tokens that work.
    const first = tokens.refresh_token;
    const refreshed = await server.http.post('/api/auth/refresh', { refresh_token: first });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(refreshed.body.refresh_token).not.toBe(first);
    secrets.push(refreshed.body.access_token, refreshed.body.id_token, refreshed.body.refresh_token);
    expect((await server.http.get('/api/account', { token: refreshed.body.access_token })).status).toBe(200);

    // Replaying the rotated token revokes the family: the successor dies too.
    const replay = await server.http.post('/api/auth/refresh', { refresh_token: first });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ detail: AUTH_MESSAGES.invalidRefreshToken });
    expect((await server.http.post('/api/auth/refresh', { refresh_token: refreshed.body.refresh_token })).status).toBe(401);

    // A new sign-in starts a new family.
    tokens = (await server.http.post('/api/auth/login', { email, password })).body;
    secrets.push(tokens.access_token, tokens.id_token, tokens.refresh_token);

    // Change password: the old one stops working, the new one works.
    const wrongOld = await server.http.post('/api/auth/change-password', { old_password: 'nope-nope', new_password: 'x'.repeat(12) }, { token: tokens.access_token });
    // 400: the session is fine, a field is wrong (a 401 would make the web app sign the user out).
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body).toEqual({ detail: AUTH_MESSAGES.incorrectCredentials });
    const noNew = await server.http.post('/api/auth/change-password', { old_password: password }, { token: tokens.access_token });
    expect(noNew.status).toBe(422);
    expect(noNew.body.detail[0]).toMatchObject({ loc: ['body', 'new_password'], msg: AUTH_MESSAGES.newPasswordRequired });
    const newPassword = 'nanosecond-B1';
    secrets.push(newPassword);
    const changed = await server.http.post('/api/auth/change-password', { old_password: password, new_password: newPassword }, { token: tokens.access_token });
    expect(changed.status).toBe(200);
    expect((await server.http.post('/api/auth/login', { email, password })).body).toEqual({ detail: AUTH_MESSAGES.incorrectCredentials });
    password = newPassword;

    // Logout (refresh token from the HttpOnly cookie) revokes it and clears the cookie.
    const cookie = `cb_refresh=${tokens.refresh_token}`;
    const logout = await server.http.post('/api/auth/logout', {}, { headers: { cookie } });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toMatch(/^cb_refresh=;.*Expires=Thu, 01 Jan 1970/);
    expect((await server.http.post('/api/auth/refresh', {}, { headers: { cookie } })).status).toBe(401);
    expect((await server.http.post('/api/auth/refresh', { refresh_token: tokens.refresh_token })).status).toBe(401);

    // Forgot / reset: a code by mail, then the new password; every session ends.
    tokens = (await server.http.post('/api/auth/login', { email, password })).body;
    secrets.push(tokens.access_token, tokens.id_token, tokens.refresh_token);
    const before = smtp.mails.length;
    expect((await server.http.post('/api/auth/forgot-password', { email })).status).toBe(200);
    const resetMail = await smtp.waitForMail(email, before);
    expect(resetMail.raw).toMatch(/^Subject: Reset your Cronbeam password$/m);
    const resetCode = codeIn(resetMail);
    secrets.push(resetCode);
    const resetPassword = 'reset-password-C2';
    secrets.push(resetPassword);
    const reset = await server.http.post('/api/auth/reset-password', { email, code: resetCode, new_password: resetPassword });
    expect(reset.status).toBe(200);
    expect((await server.http.post('/api/auth/refresh', { refresh_token: tokens.refresh_token })).status).toBe(401);
    await new Promise((r) => setTimeout(r, 1_100)); // iat has one-second resolution
    tokens = (await server.http.post('/api/auth/login', { email, password: resetPassword })).body;
    secrets.push(tokens.access_token, tokens.id_token, tokens.refresh_token);
    expect(tokens.access_token).toEqual(expect.any(String));

    // The user owns data in the other modules' tables.
    const job = await db.query(
      `INSERT INTO jobs (account_id, name, url, cron_expression) VALUES ($1, 'nightly', 'https://example.test/', '0 0 * * *') RETURNING id`,
      [userId],
    );
    await db.query(`INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, due_at) VALUES ($1, $2, 'manual', now(), now())`, [job.rows[0].id, userId]);
    await db.query(`INSERT INTO usage_periods (account_id, period_start, executions) VALUES ($1, date_trunc('month', now()), 3)`, [userId]);

    const deleted = await server.http.delete('/api/account', { token: tokens.access_token });
    expect(deleted.status).toBe(200);
    for (const table of ['users', 'accounts', 'jobs', 'job_runs', 'usage_periods', 'refresh_tokens', 'verification_codes']) {
      const column = table === 'users' || table === 'accounts' ? 'id' : ['refresh_tokens', 'verification_codes'].includes(table) ? 'user_id' : 'account_id';
      const left = await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [userId]);
      expect({ table, rows: left.rows[0].n }).toEqual({ table, rows: 0 });
    }
    const afterDelete = await server.http.get('/api/account', { token: tokens.access_token });
    expect(afterDelete.status).toBe(401);
    expect(afterDelete.body).toEqual({ detail: AUTH_MESSAGES.notAuthenticated });
    expect((await server.http.post('/api/auth/refresh', { refresh_token: tokens.refresh_token })).status).toBe(401);
    expect((await server.http.post('/api/auth/login', { email, password: resetPassword })).body).toEqual({ detail: AUTH_MESSAGES.userDoesNotExist });
  });

  it('deletes cascade from accounts to every table that references them, and from users to their identity', async () => {
    // Tables other modules add later must follow the rule too, or account deletion would fail or leave data behind.
    const refsTo = async (table: string) =>
      (
        await db.query(`
      SELECT con.conrelid::regclass::text AS table_name, con.confdeltype AS on_delete
        FROM pg_constraint con
       WHERE con.contype = 'f' AND con.confrelid = $1::regclass AND con.conparentid = 0`, [table])
      ).rows;
    const toAccounts = await refsTo('accounts');
    expect(toAccounts.map((r) => r.table_name)).toEqual(expect.arrayContaining(['jobs', 'job_runs', 'usage_periods', 'api_keys', 'monitors', 'alert_channels']));
    expect(toAccounts.filter((r) => r.on_delete !== 'c')).toEqual([]);
    // What a user made in an account stays with the account when they go (set null: the key's creator, an invitation's sender).
    const toUsers = await refsTo('users');
    expect(toUsers.length).toBeGreaterThanOrEqual(3);
    expect(toUsers.filter((r) => r.on_delete !== 'c' && !['api_keys', 'account_invitations'].includes(r.table_name))).toEqual([]);
  });

  it('never logs a password, code, token or the SMTP password', () => {
    const logs = server.logs.text();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(logs.includes(secret) ? secret : 'absent').toBe('absent');
  });
});
