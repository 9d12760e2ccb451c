import { AdminCreateUserCommand, CognitoIdentityProviderClient, SetUserPoolMfaConfigCommand } from '@aws-sdk/client-cognito-identity-provider';
import { AUTH_FIELD_MESSAGES, AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { CognitoLocalProcess } from '../fakes/cognito-local-process';
import { startTestServer, type TestServer } from '../support/test-server';
import { Authenticator } from '../support/totp-authenticator';
import { sql } from './jobs-fixtures';

jest.setTimeout(120_000);

const PUBLIC_URL = 'http://localhost:3996';

/**
 * Two-factor sign-in and the new-password challenge with AUTH_PROVIDER=cognito,
 * through the pool's own calls (AssociateSoftwareToken, VerifySoftwareToken,
 * SetUserMFAPreference, RespondToAuthChallenge) against cognito-local.
 */
describe('cognito challenges (against cognito-local)', () => {
  let cognito: CognitoLocalProcess;
  let server: TestServer;
  let pool: { userPoolId: string; clientId: string };

  /** The pool's administrative API, as an operator with AWS credentials reaches it. */
  async function asOperator<T>(call: (admin: CognitoIdentityProviderClient) => Promise<T>): Promise<T> {
    const admin = new CognitoIdentityProviderClient({ region: 'local', endpoint: cognito.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      return await call(admin);
    } finally {
      admin.destroy();
    }
  }

  beforeAll(async () => {
    cognito = await CognitoLocalProcess.start();
    pool = await cognito.createPool(`${PUBLIC_URL}/auth/callback`);
    // Users may turn on an authenticator (MFA optional, software token allowed), as the production pool is set up.
    await asOperator((admin) =>
      admin.send(new SetUserPoolMfaConfigCommand({ UserPoolId: pool.userPoolId, MfaConfiguration: 'OPTIONAL', SoftwareTokenMfaConfiguration: { Enabled: true } })),
    );
    server = await startTestServer({
      ...cognito.serverEnv(pool, PUBLIC_URL),
    });
  });
  afterAll(async () => {
    await server?.close();
    await cognito?.stop();
  });

  const login = (email: string, password: string) => server.http.post('/api/auth/login', { email, password });

  it('turns on the software token through the pool and signs in with its code', async () => {
    const email = 'dorothy@example.test';
    const password = 'Pool-Password-1';
    expect((await server.http.post('/api/auth/signup', { name: 'Dorothy Vaughan', email, password })).status).toBe(201);
    expect((await server.http.post('/api/auth/verify', { email, code: cognito.codeSentTo(email) })).status).toBe(200);
    const session = await login(email, password);
    const auth = { token: session.body.access_token };
    expect((await server.http.get('/api/auth/mfa', auth)).body).toEqual({ totp_enabled: false, enabled_at: null, recovery_codes_left: 0 });

    const setup = await server.http.post('/api/auth/mfa/totp/setup', undefined, auth);
    expect(setup.status).toBe(200);
    expect(new URL(setup.body.otpauth_uri).searchParams.get('secret')).toBe(setup.body.secret);
    const app = new Authenticator(setup.body.secret);
    const code = await app.nextCode();
    const wrong = await server.http.post('/api/auth/mfa/totp/enable', { code: String((Number(code) + 1) % 1_000_000).padStart(6, '0') }, auth);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: AUTH_MESSAGES.codeMismatch });
    const enabled = await server.http.post('/api/auth/mfa/totp/enable', { code }, auth);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ recovery_codes: [] });
    expect((await server.http.get('/api/auth/mfa', auth)).body.totp_enabled).toBe(true);
    expect((await server.http.post('/api/auth/mfa/recovery-codes', { code: await app.nextCode() }, auth)).body).toEqual({
      detail: AUTH_MESSAGES.recoveryCodesUnavailable,
    });

    const step = await login(email, password);
    expect(step.status).toBe(200);
    expect(step.body).toEqual({ challenge: 'SOFTWARE_TOKEN_MFA', session: expect.any(String) });
    const answer = { email, challenge: 'SOFTWARE_TOKEN_MFA', session: step.body.session };
    const refused = await server.http.post('/api/auth/challenge', { ...answer, code: '000000' === code ? '111111' : '000000' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ detail: AUTH_MESSAGES.codeMismatch });
    const recovery = await server.http.post('/api/auth/challenge', { ...answer, recovery_code: 'aaaaa-bbbbb' });
    expect(recovery.status).toBe(422);
    expect(recovery.body.detail[0].msg).toBe(AUTH_MESSAGES.recoveryCodesUnavailable);
    const done = await server.http.post('/api/auth/challenge', { ...answer, code: await app.nextCode() });
    expect(done.status).toBe(200);
    expect((await server.http.get('/api/account', { token: done.body.access_token })).body.email).toBe(email);

    // Turning it off needs a right code too.
    const offAuth = { token: done.body.access_token };
    expect((await server.http.post('/api/auth/mfa/totp/disable', { recovery_code: 'aaaaa-bbbbb' }, offAuth)).status).toBe(422);
    expect((await server.http.post('/api/auth/mfa/totp/disable', { code: await app.nextCode() }, offAuth)).status).toBe(200);
    expect((await login(email, password)).body.access_token).toEqual(expect.any(String));
  });

  it('passes the pool NEW_PASSWORD_REQUIRED challenge of an operator-created user through', async () => {
    const email = 'annie@example.test';
    await asOperator((admin) =>
      admin.send(
        new AdminCreateUserCommand({
          UserPoolId: pool.userPoolId,
          Username: email,
          TemporaryPassword: 'Temporary-Pass-1',
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
            { Name: 'name', Value: 'Annie Easley' },
          ],
        }),
      ),
    );
    const step = await login(email, 'Temporary-Pass-1');
    expect(step.status).toBe(200);
    expect(step.body).toEqual({ challenge: 'NEW_PASSWORD_REQUIRED', session: expect.any(String) });
    const empty = await server.http.post('/api/auth/challenge', { email, challenge: 'NEW_PASSWORD_REQUIRED', session: step.body.session });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].msg).toBe(AUTH_FIELD_MESSAGES.newPasswordRequired);
    const done = await server.http.post('/api/auth/challenge', {
      email,
      challenge: 'NEW_PASSWORD_REQUIRED',
      session: step.body.session,
      new_password: 'Chosen-Password-2',
    });
    expect(done.status).toBe(200);
    const account = (await server.http.get('/api/account', { token: done.body.access_token })).body;
    expect(account).toMatchObject({ email });
    // The password the user chose is a change of their security settings: the pool's, its entry written after it.
    expect(await sql(server, `SELECT account_id, actor_user_id, action, changes FROM audit_events WHERE request_id = $1`, [done.headers.get('x-request-id')])).toEqual([
      { account_id: account.user_id, actor_user_id: account.user_id, action: 'user.password_changed', changes: { password: { before: '***', after: '***' }, password_change_required: { before: true, after: false } } },
    ]);
    expect((await login(email, 'Chosen-Password-2')).body.access_token).toEqual(expect.any(String));
  });
});
