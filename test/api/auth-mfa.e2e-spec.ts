import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { AUTH_FIELD_MESSAGES, AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { Authenticator } from '../support/totp-authenticator';
import { TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(180_000);

const CHALLENGE_TTL_SECONDS = 4;
const PER_ACCOUNT = 5;

interface Outbox {
  to: string;
  subject: string;
  text: string;
}

/**
 * Two-factor sign-in of the local identity provider over HTTP: set-up with
 * codes computed by the test's own RFC 6238 authenticator, the challenge
 * step, recovery codes, remembered devices, the new-password challenge, and
 * every refusal with its message and its count in the throttle.
 */
describe('two-factor sign-in (local provider)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      AUTH_CHALLENGE_TTL_SECONDS: String(CHALLENGE_TTL_SECONDS),
      AUTH_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const login = (email: string, password: string, extra: Record<string, unknown> = {}) =>
    server.http.post('/api/auth/login', { email, password, ...extra });
  const answer = (body: Record<string, unknown>) => server.http.post('/api/auth/challenge', body);
  const mails = async (to: string) => (await server.http.get<Outbox[]>('/api/dev/outbox')).body.filter((m) => m.to === to);

  /** A signed-in account with two-factor on: its authenticator and its recovery codes. */
  async function accountWithTwoFactor(): Promise<{ account: SignedInAccount; app: Authenticator; recoveryCodes: string[] }> {
    const account = await signUpAndLogin(server);
    const setup = await server.http.post('/api/auth/mfa/totp/setup', undefined, { token: account.accessToken });
    expect(setup.status).toBe(200);
    const app = new Authenticator(setup.body.secret);
    const enable = await server.http.post('/api/auth/mfa/totp/enable', { code: await app.nextCode() }, { token: account.accessToken });
    expect(enable.status).toBe(200);
    return { account, app, recoveryCodes: enable.body.recovery_codes };
  }

  async function challengeFor(account: SignedInAccount, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await login(account.email, account.password, extra);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ challenge: 'SOFTWARE_TOKEN_MFA', session: expect.any(String) });
    return res.body.session;
  }

  it('sets up an authenticator from the otpauth URI and turns two-factor on only with a right code', async () => {
    const account = await signUpAndLogin(server, { name: 'Two Factor' });
    const auth = { token: account.accessToken };
    expect((await server.http.get('/api/auth/mfa', auth)).body).toEqual({ totp_enabled: false, enabled_at: null, recovery_codes_left: 0 });
    expect((await server.http.post('/api/auth/mfa/totp/enable', { code: '123456' }, auth)).body).toEqual({
      detail: AUTH_MESSAGES.softwareTokenNotSetUp,
    });

    const setup = await server.http.post('/api/auth/mfa/totp/setup', undefined, auth);
    expect(setup.status).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    const uri = new URL(setup.body.otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Cronbeam:${account.email}`);
    expect(uri.searchParams.get('issuer')).toBe('Cronbeam');
    expect(uri.searchParams.get('secret')).toBe(setup.body.secret);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);

    const app = new Authenticator(setup.body.secret);
    const right = await app.nextCode();
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const refused = await server.http.post('/api/auth/mfa/totp/enable', { code: wrong }, auth);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ detail: AUTH_MESSAGES.codeMismatch });
    const malformed = await server.http.post('/api/auth/mfa/totp/enable', { code: '12ab' }, auth);
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'code'], msg: AUTH_FIELD_MESSAGES.totpCodeInvalid })]);

    const enabled = await server.http.post('/api/auth/mfa/totp/enable', { code: right }, auth);
    expect(enabled.status).toBe(200);
    expect(enabled.body.recovery_codes).toHaveLength(10);
    for (const code of enabled.body.recovery_codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(new Set(enabled.body.recovery_codes).size).toBe(10);

    const status = (await server.http.get('/api/auth/mfa', auth)).body;
    expect(status).toEqual({ totp_enabled: true, enabled_at: expect.any(String), recovery_codes_left: 10 });
    expect((await server.http.post('/api/auth/mfa/totp/setup', undefined, auth)).status).toBe(409);
    expect((await mails(account.email)).map((m) => m.subject)).toContain('Two-factor sign-in is on for your Cronbeam account');
    // Neither the secret nor a recovery code is ever logged.
    expect(server.logs.text()).not.toContain(setup.body.secret);
    expect(server.logs.text()).not.toContain(enabled.body.recovery_codes[0]);
  });

  it('answers the password step with a challenge and completes it with a code, once', async () => {
    const { account, app } = await accountWithTwoFactor();
    const code = await app.nextCode(); // before the challenge, which lives shorter than nextCode() may wait
    const step = await login(account.email, account.password);
    expect(step.status).toBe(200);
    expect(step.body).toEqual({ challenge: 'SOFTWARE_TOKEN_MFA', session: expect.any(String) });
    expect(step.headers.get('set-cookie')).toBeNull();

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const base = { email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session: step.body.session };
    const refused = await answer({ ...base, code: wrong });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ detail: AUTH_MESSAGES.codeMismatch });

    const done = await answer({ ...base, code });
    expect(done.status).toBe(200);
    expect(done.body).toEqual(expect.objectContaining({ access_token: expect.any(String), id_token: expect.any(String), token_type: 'Bearer' }));
    expect(done.body.device_key).toBeUndefined();
    expect((await server.http.get('/api/account', { token: done.body.access_token })).status).toBe(200);

    // The session is single-use, and the code cannot be used again in a new session.
    const replayed = await answer({ ...base, code });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toEqual({ detail: AUTH_MESSAGES.challengeSessionExpired });
    const again = await answer({ ...base, session: await challengeFor(account), code });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: AUTH_MESSAGES.codeMismatch });
  });

  it('refuses an expired session, a session of someone else, a made-up session and an answer without a code', async () => {
    const { account, app } = await accountWithTwoFactor();
    const other = await accountWithTwoFactor();
    const session = await challengeFor(account);
    const otherSession = await challengeFor(other.account);

    const missing = await answer({ email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'code'], msg: AUTH_FIELD_MESSAGES.codeOrRecoveryCodeRequired })]);

    const crossed = await answer({ email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session: otherSession, code: await other.app.nextCode() });
    expect(crossed.status).toBe(401);
    expect(crossed.body).toEqual({ detail: AUTH_MESSAGES.challengeSessionExpired });
    const madeUp = await answer({ email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session: 'x'.repeat(43), code: '000000' });
    expect(madeUp.body).toEqual({ detail: AUTH_MESSAGES.challengeSessionExpired });
    const wrongName = await answer({ email: account.email, challenge: 'NEW_PASSWORD_REQUIRED', session, new_password: 'another-password-1' });
    expect(wrongName.body).toEqual({ detail: AUTH_MESSAGES.challengeSessionExpired });

    await new Promise((r) => setTimeout(r, CHALLENGE_TTL_SECONDS * 1000 + 500));
    const expired = await answer({ email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session, code: await app.nextCode() });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: AUTH_MESSAGES.challengeSessionExpired });
  });

  it('signs in with a recovery code once; a replayed one is refused', async () => {
    const { account, recoveryCodes } = await accountWithTwoFactor();
    const base = { email: account.email, challenge: 'SOFTWARE_TOKEN_MFA' };
    // Typed with spaces and capitals, as people copy them.
    const typed = ` ${recoveryCodes[3].toUpperCase().replace('-', ' ')} `;
    const done = await answer({ ...base, session: await challengeFor(account), recovery_code: typed });
    expect(done.status).toBe(200);
    expect(done.body.access_token).toEqual(expect.any(String));

    const replay = await answer({ ...base, session: await challengeFor(account), recovery_code: recoveryCodes[3] });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ detail: AUTH_MESSAGES.recoveryCodeMismatch });
    const madeUp = await answer({ ...base, session: await challengeFor(account), recovery_code: 'aaaaa-bbbbb' });
    expect(madeUp.body).toEqual({ detail: AUTH_MESSAGES.recoveryCodeMismatch });
    expect((await server.http.get('/api/auth/mfa', { token: done.body.access_token })).body.recovery_codes_left).toBe(9);
  });

  it('counts wrong codes in the throttle: after the limit even the right code is refused', async () => {
    const { account, app } = await accountWithTwoFactor();
    const session = await challengeFor(account);
    const statuses: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 2; i++) {
      const res = await answer({ email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session, code: String(100000 + i) });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(PER_ACCOUNT).fill(400), 429, 429]);
    const right = await answer({ email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session, code: await app.nextCode() });
    expect(right.status).toBe(429);
    expect(right.body).toEqual({ detail: AUTH_MESSAGES.passwordAttemptsExceeded });
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // A right password does not reset the count of wrong codes.
    expect((await login(account.email, account.password)).status).toBe(200);
    expect((await answer({ email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session: await challengeFor(account), code: '999999' })).status).toBe(429);
    // Sessions that are not open prove nothing and are not counted, so nobody can lock an account out by its email alone.
    const other = await accountWithTwoFactor();
    for (let i = 0; i < PER_ACCOUNT + 1; i++) {
      const bogus = await answer({ email: other.account.email, challenge: 'SOFTWARE_TOKEN_MFA', session: `made-up-${i}`, code: '123456' });
      expect(bogus.status).toBe(401);
    }
    // The code first: nextCode() may wait out the end of a 30 s step, longer than the challenge lives here.
    const otherCode = await other.app.nextCode();
    const fine = await answer({ email: other.account.email, challenge: 'SOFTWARE_TOKEN_MFA', session: await challengeFor(other.account), code: otherCode });
    expect(fine.status).toBe(200);
    // Wrong codes when turning two-factor off count in the same bucket.
    const off = await server.http.post('/api/auth/mfa/totp/disable', { code: '000000' }, { token: account.accessToken });
    expect(off.status).toBe(429);
  });

  it('remembers a device for the second factor, lists it, forgets it, and then asks for the code again', async () => {
    const { account, app } = await accountWithTwoFactor();
    const code = await app.nextCode(); // before the challenge, which lives shorter than nextCode() may wait
    const done = await answer({
      email: account.email,
      challenge: 'SOFTWARE_TOKEN_MFA',
      session: await challengeFor(account),
      code,
      remember_device: true,
      device_name: 'Chrome on Linux',
    });
    expect(done.status).toBe(200);
    const deviceKey: string = done.body.device_key;
    expect(deviceKey).toMatch(/^[\w-]{43}$/);
    const notice = (await mails(account.email)).find((m) => m.subject === 'New device signed in to your Cronbeam account');
    expect(notice?.text).toContain('Chrome on Linux');
    expect(server.logs.text()).not.toContain(deviceKey);

    const remembered = await login(account.email, account.password, { device_key: deviceKey });
    expect(remembered.status).toBe(200);
    expect(remembered.body.access_token).toEqual(expect.any(String));
    const token = remembered.body.access_token;

    const list = await server.http.get('/api/auth/devices', { token });
    expect(list.body).toEqual([
      { device_id: expect.any(String), name: 'Chrome on Linux', created_at: expect.any(String), last_used_at: expect.any(String), expires_at: expect.any(String) },
    ]);
    const days = (Date.parse(list.body[0].expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    // Nobody else can see or forget it.
    const stranger = await signUpAndLogin(server);
    expect((await server.http.get('/api/auth/devices', { token: stranger.accessToken })).body).toEqual([]);
    const foreign = await server.http.delete(`/api/auth/devices/${list.body[0].device_id}`, { token: stranger.accessToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: AUTH_MESSAGES.deviceNotFound });
    expect((await login(stranger.email, stranger.password, { device_key: deviceKey })).status).toBe(200); // no 2FA: the key is irrelevant

    expect((await server.http.delete(`/api/auth/devices/${list.body[0].device_id}`, { token })).status).toBe(200);
    const forgotten = await login(account.email, account.password, { device_key: deviceKey });
    expect(forgotten.status).toBe(404);
    expect(forgotten.body).toEqual({ detail: AUTH_MESSAGES.deviceNotFound });
    // What the client does next: drop the device data, sign in again, and get asked for the code.
    await challengeFor(account);
    // A wrong password with a device key is still just a wrong password.
    expect((await login(account.email, 'not-the-password', { device_key: deviceKey })).body).toEqual({ detail: AUTH_MESSAGES.incorrectCredentials });
  });

  it('regenerates recovery codes (the old ones stop working) and turns two-factor off with a recovery code', async () => {
    const { account, app, recoveryCodes } = await accountWithTwoFactor();
    const auth = { token: account.accessToken };
    expect((await server.http.post('/api/auth/mfa/recovery-codes', {}, auth)).status).toBe(422);
    const fresh = await server.http.post('/api/auth/mfa/recovery-codes', { code: await app.nextCode() }, auth);
    expect(fresh.status).toBe(200);
    expect(fresh.body.recovery_codes).toHaveLength(10);
    expect(fresh.body.recovery_codes).not.toContain(recoveryCodes[0]);

    const stale = await server.http.post('/api/auth/mfa/totp/disable', { recovery_code: recoveryCodes[0] }, auth);
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ detail: AUTH_MESSAGES.recoveryCodeMismatch });
    const off = await server.http.post('/api/auth/mfa/totp/disable', { recovery_code: fresh.body.recovery_codes[0] }, auth);
    expect(off.status).toBe(200);
    expect((await server.http.get('/api/auth/mfa', auth)).body).toEqual({ totp_enabled: false, enabled_at: null, recovery_codes_left: 0 });
    expect((await mails(account.email)).map((m) => m.subject)).toContain('Two-factor sign-in is off for your Cronbeam account');

    const plain = await login(account.email, account.password);
    expect(plain.body.access_token).toEqual(expect.any(String));
    const notOn = await server.http.post('/api/auth/mfa/totp/disable', { code: '123456' }, auth);
    expect(notOn.body).toEqual({ detail: AUTH_MESSAGES.twoFactorNotEnabled });
  });

  it('asks a flagged account for a new password (after the second factor) and ends its sessions', async () => {
    const { account, app } = await accountWithTwoFactor();
    // Tokens carry whole seconds: let the flagging instant be strictly after this token's iat.
    await new Promise((r) => setTimeout(r, 1100));
    const flag = await server.http.post(`/api/admin/users/${encodeURIComponent(account.email)}/require-new-password`, undefined, {
      headers: { 'x-admin-token': TEST_ADMIN_TOKEN },
    });
    expect(flag.status).toBe(200);
    expect((await server.http.get('/api/account', { token: account.accessToken })).status).toBe(401);
    expect((await server.http.post('/api/auth/refresh', { refresh_token: account.refreshToken })).status).toBe(401);

    const code = await app.nextCode(); // before the challenge, which lives shorter than nextCode() may wait
    const session = await challengeFor(account);
    const next = await answer({ email: account.email, challenge: 'SOFTWARE_TOKEN_MFA', session, code });
    expect(next.status).toBe(200);
    expect(next.body).toEqual({ challenge: 'NEW_PASSWORD_REQUIRED', session: expect.any(String) });

    const empty = await answer({ email: account.email, challenge: 'NEW_PASSWORD_REQUIRED', session: next.body.session });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'new_password'], msg: AUTH_MESSAGES.newPasswordRequired })]);
    const done = await answer({ email: account.email, challenge: 'NEW_PASSWORD_REQUIRED', session: next.body.session, new_password: 'a-brand-new-password' });
    expect(done.status).toBe(200);
    expect(done.body.access_token).toEqual(expect.any(String));

    expect((await login(account.email, account.password)).body).toEqual({ detail: AUTH_MESSAGES.incorrectCredentials });
    expect((await login(account.email, 'a-brand-new-password')).body).toEqual({ challenge: 'SOFTWARE_TOKEN_MFA', session: expect.any(String) });
    const unknown = await server.http.post('/api/admin/users/nobody%40example.test/require-new-password', undefined, {
      headers: { 'x-admin-token': TEST_ADMIN_TOKEN },
    });
    expect(unknown.status).toBe(404);
  });

  it('npm run admin -- require-new-password flags an account without two-factor', async () => {
    const account = await signUpAndLogin(server);
    const run = promisify(execFile);
    const env = { ...process.env, PUBLIC_URL: server.baseUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN, NODE_ENV: 'test' };
    const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'require-new-password', account.email], { cwd: path.resolve(__dirname, '../..'), env });
    expect(stdout).toContain(`${account.email} must choose a new password at the next sign-in`);
    const step = await login(account.email, account.password);
    expect(step.body).toEqual({ challenge: 'NEW_PASSWORD_REQUIRED', session: expect.any(String) });
    const done = await answer({ email: account.email, challenge: 'NEW_PASSWORD_REQUIRED', session: step.body.session, new_password: 'short' });
    expect(done.status).toBe(422);
    expect(done.body.detail[0].msg).toBe(AUTH_FIELD_MESSAGES.passwordTooShort);
  });

  it('refuses a token issued before sign-out-everywhere, mails a password change, and renames the user', async () => {
    const account = await signUpAndLogin(server, { name: 'Old Name' });
    const auth = { token: account.accessToken };
    const renamed = await server.http.request('PATCH', '/api/auth/profile', { ...auth, body: { name: '  New Name ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ name: 'New Name' });
    expect((await server.http.request('PATCH', '/api/auth/profile', { ...auth, body: { name: ' ' } })).status).toBe(422);
    const refreshed = await server.http.post('/api/auth/refresh', { refresh_token: account.refreshToken });
    const claims = JSON.parse(Buffer.from(refreshed.body.id_token.split('.')[1], 'base64url').toString());
    expect(claims.name).toBe('New Name');

    const changed = await server.http.post('/api/auth/change-password', { old_password: account.password, new_password: 'changed-password-1' }, auth);
    expect(changed.status).toBe(200);
    const notice = (await mails(account.email)).find((m) => m.subject === 'Your Cronbeam password was changed');
    expect(notice?.text).not.toContain('changed-password-1');

    // Tokens carry whole seconds: let the sign-out instant be strictly after this token's iat.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await server.http.post('/api/auth/global-sign-out', undefined, { token: refreshed.body.access_token })).status).toBe(200);
    expect((await server.http.get('/api/account', { token: refreshed.body.access_token })).status).toBe(401);
    expect((await server.http.get('/api/auth/mfa', { token: refreshed.body.access_token })).status).toBe(401);
  });
});
