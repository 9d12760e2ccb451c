import { randomBytes } from 'node:crypto';
import { AUTH_MESSAGES, REAUTHENTICATION_REQUIRED } from '@cronbeam/shared/auth/auth-messages';
import { CognitoLocalProcess } from '../fakes/cognito-local-process';
import { signUpAndLogin } from '../support/accounts';
import { waitUntilSignInStale } from '../support/recent-sign-in';
import { startTestServer, type TestServer } from '../support/test-server';
import { Authenticator } from '../support/totp-authenticator';

jest.setTimeout(120_000);

/**
 * A short window, so a session goes stale within the test; the default is
 * 600 s. Everything a test does "fresh" is a few requests right after a
 * sign-in, well inside it.
 */
const MAX_AGE_SECONDS = 8;

const STALE = { detail: { error: AUTH_MESSAGES.reauthenticationRequired, code: REAUTHENTICATION_REQUIRED, max_age_seconds: MAX_AGE_SECONDS } };


describe('sensitive operations ask for a recent sign-in', () => {
  describe('local provider', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ AUTH_REAUTHENTICATION_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS) });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('refuses a new API key, TOTP enrolment and account deletion on a stale session (refreshing does not help) and allows them after re-authenticating', async () => {
      const alice = await signUpAndLogin(server);
      const fresh = { token: alice.accessToken };
      expect((await server.http.post('/api/api-keys/generate', { name: 'fresh' }, fresh)).status).toBe(200);
      expect((await server.http.post('/api/auth/mfa/totp/setup', undefined, fresh)).status).toBe(200);

      await waitUntilSignInStale(server.http, alice.accessToken, MAX_AGE_SECONDS);
      const refreshed = await server.http.post('/api/auth/refresh', { refresh_token: alice.refreshToken });
      expect(refreshed.status).toBe(200);
      for (const token of [alice.accessToken, refreshed.body.access_token as string]) {
        const stale = { token };
        expect(await server.http.post('/api/api-keys/generate', { name: 'stale' }, stale)).toMatchObject({ status: 403, body: STALE });
        expect(await server.http.post('/api/auth/mfa/totp/setup', undefined, stale)).toMatchObject({ status: 403, body: STALE });
        expect(await server.http.post('/api/auth/mfa/totp/enable', { code: '123456' }, stale)).toMatchObject({ status: 403, body: STALE });
        expect(await server.http.delete('/api/account', stale)).toMatchObject({ status: 403, body: STALE });
        // Everything else keeps working on the stale session.
        expect((await server.http.get('/api/api-keys', stale)).status).toBe(200);
      }
      const replaced = refreshed.body.refresh_token as string;

      const wrong = await server.http.post('/api/auth/reauthenticate', { password: 'not-the-password' }, { token: alice.accessToken });
      expect(wrong).toMatchObject({ status: 400, body: { detail: AUTH_MESSAGES.incorrectCredentials } });
      const again = await server.http.post('/api/auth/reauthenticate', { password: alice.password, refresh_token: replaced }, { token: alice.accessToken });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ access_token: expect.any(String), id_token: expect.any(String), refresh_token: expect.any(String), expires_in: expect.any(Number), token_type: 'Bearer' });
      // The replaced session's refresh token ends with it.
      expect((await server.http.post('/api/auth/refresh', { refresh_token: replaced })).status).toBe(401);

      const confirmed = { token: again.body.access_token as string };
      expect((await server.http.post('/api/api-keys/generate', { name: 'confirmed' }, confirmed)).status).toBe(200);
      const setup = await server.http.post('/api/auth/mfa/totp/setup', undefined, confirmed);
      expect(setup.status).toBe(200);
      const app = new Authenticator(setup.body.secret);
      expect((await server.http.post('/api/auth/mfa/totp/enable', { code: await app.nextCode() }, confirmed)).status).toBe(200);

      // With two-factor on, re-authenticating asks for the code too.
      await waitUntilSignInStale(server.http, confirmed.token, MAX_AGE_SECONDS);
      const noCode = await server.http.post('/api/auth/reauthenticate', { password: alice.password }, confirmed);
      expect(noCode.status).toBe(422);
      expect(noCode.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'code'], msg: AUTH_MESSAGES.secondFactorRequired })]);
      const code = await app.nextCode();
      const withCode = await server.http.post('/api/auth/reauthenticate', { password: alice.password, code }, confirmed);
      expect(withCode.status).toBe(200);
      expect(await server.http.delete('/api/account', { token: withCode.body.access_token })).toMatchObject({ status: 200 });
    });
  });

  describe('Cognito provider (against cognito-local)', () => {
    const PUBLIC_URL = 'http://localhost:3996';
    let cognito: CognitoLocalProcess;
    let server: TestServer;
    beforeAll(async () => {
      cognito = await CognitoLocalProcess.start();
      const pool = await cognito.createPool(`${PUBLIC_URL}/auth/callback`);
      server = await startTestServer({
        ...cognito.serverEnv(pool, PUBLIC_URL),
        AUTH_REAUTHENTICATION_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS),
      });
    });
    afterAll(async () => {
      await server?.close();
      await cognito?.stop();
    });

    it("reads the pool's auth_time: stale sessions are refused, re-authenticating through the pool allows the operations again", async () => {
      const email = `recent-${randomBytes(4).toString('hex')}@example.test`;
      const password = 'Recent-Auth-Pool-1';
      expect((await server.http.post('/api/auth/signup', { name: 'Pool User', email, password })).status).toBe(201);
      expect((await server.http.post('/api/auth/verify', { email, code: cognito.codeSentTo(email) })).status).toBe(200);
      const login = await server.http.post('/api/auth/login', { email, password });
      const stale = { token: login.body.access_token as string };
      expect((await server.http.post('/api/api-keys/generate', { name: 'fresh' }, stale)).status).toBe(200);

      await waitUntilSignInStale(server.http, stale.token, MAX_AGE_SECONDS);
      expect(await server.http.post('/api/api-keys/generate', { name: 'stale' }, stale)).toMatchObject({ status: 403, body: STALE });
      expect(await server.http.post('/api/auth/mfa/totp/enable', { code: '123456' }, stale)).toMatchObject({ status: 403, body: STALE });
      expect(await server.http.delete('/api/account', stale)).toMatchObject({ status: 403, body: STALE });

      expect((await server.http.post('/api/auth/reauthenticate', { password: 'Wrong-Password-9' }, stale)).status).toBe(400);
      const again = await server.http.post('/api/auth/reauthenticate', { password }, stale);
      expect(again.status).toBe(200);
      const confirmed = { token: again.body.access_token as string };
      expect((await server.http.post('/api/api-keys/generate', { name: 'confirmed' }, confirmed)).status).toBe(200);
      expect((await server.http.post('/api/auth/mfa/totp/setup', undefined, confirmed)).status).toBe(200);
      expect((await server.http.delete('/api/account', confirmed)).status).toBe(200);
    });
  });
});
