import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { CognitoLocalProcess } from '../fakes/cognito-local-process';
import { startTestServer, type TestServer } from '../support/test-server';

// The api project's testTimeout is not applied to single-file runs; cognito-local and the app take seconds to boot.
jest.setTimeout(90_000);

const PUBLIC_URL = 'http://localhost:3998';

/** The same sign-up / verify / login / refresh life cycle with AUTH_PROVIDER=cognito, against cognito-local. */
describe('cognito identity provider (against cognito-local)', () => {
  let cognito: CognitoLocalProcess;
  let server: TestServer;
  let pool: { userPoolId: string; clientId: string };
  const secrets: string[] = [];

  const cognitoEnv = () => ({
    ...cognito.serverEnv(pool, PUBLIC_URL),
  });

  beforeAll(async () => {
    cognito = await CognitoLocalProcess.start();
    pool = await cognito.createPool(`${PUBLIC_URL}/auth/callback`);
    server = await startTestServer(cognitoEnv());
  });
  afterAll(async () => {
    await server?.close();
    await cognito?.stop();
  });

  it('signs up, verifies with the pool code, logs in, calls a protected route, refreshes, changes password, logs out, resets, deletes', async () => {
    const email = 'hedy@example.test';
    const password = 'Frequency-Hopping-1';
    secrets.push(password);
    const signup = await server.http.post('/api/auth/signup', { name: 'Hedy Lamarr', email, password });
    expect(signup.status).toBe(201);
    const userId: string = signup.body.user_id;

    const early = await server.http.post('/api/auth/login', { email, password });
    expect(early.status).toBe(403);
    expect(early.body).toEqual({ detail: AUTH_MESSAGES.userNotConfirmed });

    const code = cognito.codeSentTo(email);
    secrets.push(code);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await server.http.post('/api/auth/verify', { email, code: wrong })).body).toEqual({ detail: AUTH_MESSAGES.codeMismatch });
    expect((await server.http.post('/api/auth/verify', { email, code })).status).toBe(200);

    expect((await server.http.post('/api/auth/login', { email, password: 'Wrong-Password-9' })).body).toEqual({ detail: AUTH_MESSAGES.incorrectCredentials });
    // The pool hides whether an account exists (PreventUserExistenceErrors): an unknown user reads as wrong credentials.
    expect((await server.http.post('/api/auth/login', { email: 'nobody@example.test', password })).body).toEqual({ detail: AUTH_MESSAGES.incorrectCredentials });

    const login = await server.http.post('/api/auth/login', { email, password });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ access_token: expect.any(String), id_token: expect.any(String), refresh_token: expect.any(String), expires_in: expect.any(Number), token_type: 'Bearer' });
    secrets.push(login.body.access_token, login.body.id_token, login.body.refresh_token);
    const claims = JSON.parse(Buffer.from(login.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: userId, token_use: 'access', client_id: pool.clientId, iss: `${cognito.endpoint}/${pool.userPoolId}` });

    // The bearer guard verifies the pool's tokens against the pool's JWKS.
    const me = await server.http.get('/api/account', { token: login.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user_id: userId, email, name: 'Hedy Lamarr', email_verified: true });
    // ID tokens are not access tokens, in this mode too.
    expect((await server.http.get('/api/account', { token: login.body.id_token })).status).toBe(401);

    const refreshed = await server.http.post('/api/auth/refresh', { refresh_token: login.body.refresh_token });
    expect(refreshed.status).toBe(200);
    secrets.push(refreshed.body.access_token, refreshed.body.id_token, refreshed.body.refresh_token);
    expect((await server.http.get('/api/account', { token: refreshed.body.access_token })).status).toBe(200);

    const newPassword = 'Frequency-Hopping-2';
    secrets.push(newPassword);
    const changed = await server.http.post('/api/auth/change-password', { old_password: password, new_password: newPassword }, { token: refreshed.body.access_token });
    expect(changed.status).toBe(200);
    expect((await server.http.post('/api/auth/login', { email, password: newPassword })).status).toBe(200);

    // Logout revokes the refresh token at the pool (RevokeToken).
    const session = (await server.http.post('/api/auth/login', { email, password: newPassword })).body;
    secrets.push(session.access_token, session.id_token, session.refresh_token);
    expect((await server.http.post('/api/auth/logout', { refresh_token: session.refresh_token })).status).toBe(200);
    const revoked = await server.http.post('/api/auth/refresh', { refresh_token: session.refresh_token });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ detail: AUTH_MESSAGES.invalidRefreshToken });

    // Forgot / reset through the pool's code.
    expect((await server.http.post('/api/auth/forgot-password', { email })).status).toBe(200);
    const resetCode = cognito.codeSentTo(email);
    secrets.push(resetCode);
    const resetPassword = 'Frequency-Hopping-3';
    secrets.push(resetPassword);
    expect((await server.http.post('/api/auth/reset-password', { email, code: resetCode, new_password: resetPassword })).status).toBe(200);
    expect((await server.http.post('/api/auth/login', { email, password: resetPassword })).status).toBe(200);

    const deleted = await server.http.delete('/api/account', { token: refreshed.body.access_token });
    expect(deleted.status).toBe(200);
    expect((await server.http.get('/api/account', { token: refreshed.body.access_token })).status).toBe(401);
    expect((await server.http.post('/api/auth/login', { email, password: resetPassword })).status).toBe(401);
  });

  it('keeps passwords, codes and tokens out of the logs', () => {
    const logs = server.logs.text();
    for (const secret of secrets) expect(logs.includes(secret) ? secret : 'absent').toBe('absent');
  });
});
