import { request } from 'node:http';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { latestMailedCode, signUpAndLogin } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';

// The api project's testTimeout is not applied to single-file runs; booting on the embedded database takes seconds.
jest.setTimeout(60_000);

/** Decodes a JWT's header and payload (no verification: the server is what verifies). */
function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
  return { header, payload };
}

/** A POST as a browser on another host name would send it. */
function postWithHost(server: TestServer, host: string, path: string, body: object): Promise<{ status: number; setCookie: string }> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'POST', headers: { host, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: (res.headers['set-cookie'] ?? []).join('\n') }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('local identity: sign-up, verification, login, bearer guard', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs up, mails a 6-digit code, verifies and logs in with RS256 tokens carrying the spec claims', async () => {
    const email = 'Ada.Lovelace@Example.test';
    const signup = await server.http.post('/api/auth/signup', { name: 'Ada Lovelace', email, password: 'analytical-engine' });
    expect(signup.status).toBe(201);
    expect(signup.body).toEqual({ user_id: expect.any(String), email, user_confirmed: false });

    const outbox = await server.http.get('/api/dev/outbox');
    expect(outbox.body[0]).toEqual({ to: email, subject: expect.any(String), text: expect.stringMatching(/\b\d{6}\b/), created_at: expect.any(String) });

    const beforeVerify = await server.http.post('/api/auth/login', { email, password: 'analytical-engine' });
    expect(beforeVerify.status).toBe(403);
    expect(beforeVerify.body).toEqual({ detail: AUTH_MESSAGES.userNotConfirmed });

    const code = await latestMailedCode(server, email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await server.http.post('/api/auth/verify', { email, code: wrong })).body).toEqual({ detail: AUTH_MESSAGES.codeMismatch });
    expect((await server.http.post('/api/auth/verify', { email: email.toLowerCase(), code })).status).toBe(200);
    // A code works once.
    expect((await server.http.post('/api/auth/verify', { email, code })).status).toBe(400);

    const login = await server.http.post('/api/auth/login', { email: 'ada.lovelace@example.test', password: 'analytical-engine' });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({
      access_token: expect.any(String),
      id_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
      token_type: 'Bearer',
    });
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^cb_refresh=[^;]+;.*HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const jwks = await server.http.get('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    const [key] = jwks.body.keys;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String), n: expect.any(String), e: 'AQAB' });
    expect(key).not.toHaveProperty('d');

    const id = decodeJwt(login.body.id_token);
    expect(id.header).toMatchObject({ alg: 'RS256', kid: key.kid });
    expect(id.payload).toMatchObject({
      sub: signup.body.user_id,
      email,
      name: 'Ada Lovelace',
      token_use: 'id',
      aud: 'cronbeam-web',
      iss: server.config.publicUrl,
    });
    expect((id.payload.exp as number) - (id.payload.iat as number)).toBe(3600);
    const access = decodeJwt(login.body.access_token);
    expect(access.payload).toMatchObject({ sub: signup.body.user_id, token_use: 'access', client_id: 'cronbeam-web', jti: expect.any(String) });

    const me = await server.http.get('/api/account', { token: login.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user_id: signup.body.user_id, email, name: 'Ada Lovelace', plan: 'free', email_verified: true });
  });

  it('answers the spec texts for duplicate sign-up, unknown users and wrong passwords', async () => {
    const account = await signUpAndLogin(server);
    const dup = await server.http.post('/api/auth/signup', { name: 'X', email: account.email.toUpperCase(), password: 'whatever-123' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ detail: AUTH_MESSAGES.emailAlreadyRegistered });

    const unknown = await server.http.post('/api/auth/login', { email: 'nobody@example.test', password: 'whatever-123' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ detail: AUTH_MESSAGES.userDoesNotExist });

    const wrong = await server.http.post('/api/auth/login', { email: account.email, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: AUTH_MESSAGES.incorrectCredentials });

    const noPassword = await server.http.post('/api/auth/login', { email: account.email, password: '' });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body.detail).toEqual([{ loc: ['body', 'password'], msg: AUTH_MESSAGES.passwordRequired, type: expect.any(String) }]);
  });

  it('takes as long to refuse an unknown user as a wrong password (no account probing by timing)', async () => {
    const account = await signUpAndLogin(server);
    const timed = async (email: string) => {
      const started = process.hrtime.bigint();
      const res = await server.http.post('/api/auth/login', { email, password: 'wrong-password' });
      expect(res.status).toBe(401);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const unknown: number[] = [];
    const wrong: number[] = [];
    // Interleaved, so load on the machine affects both alike; under the per-account limit of 5.
    for (let i = 0; i < 4; i++) {
      unknown.push(await timed(`nobody-${i}@example.test`));
      wrong.push(await timed(account.email));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    // Without the decoy hash the unknown-user answer skips scrypt and is several times faster.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.5);
    expect(median(unknown) / median(wrong)).toBeLessThan(2);
  });

  it('resends a fresh code that replaces the previous one', async () => {
    const email = 'resend@example.test';
    await server.http.post('/api/auth/signup', { name: 'Re Send', email, password: 'resend-password' });
    const first = await latestMailedCode(server, email);
    expect((await server.http.post('/api/auth/resend-code', { email })).status).toBe(200);
    const second = await latestMailedCode(server, email);
    if (first !== second) expect((await server.http.post('/api/auth/verify', { email, code: first })).status).toBe(400);
    expect((await server.http.post('/api/auth/verify', { email, code: second })).status).toBe(200);
    expect((await server.http.post('/api/auth/resend-code', { email })).body).toEqual({ detail: AUTH_MESSAGES.alreadyConfirmed });
  });

  it('marks the refresh cookie Secure except on localhost', async () => {
    const account = await signUpAndLogin(server);
    const local = await server.http.post('/api/auth/login', { email: account.email, password: account.password });
    expect(local.headers.get('set-cookie')).not.toMatch(/Secure/);
    // fetch will not send another Host, so this call goes through node:http.
    const hosted = await postWithHost(server, 'app.cronbeam.example', '/api/auth/login', { email: account.email, password: account.password });
    expect(hosted.status).toBe(200);
    expect(hosted.setCookie).toMatch(/^cb_refresh=[^;]+;.*Path=\/api\/auth;.*HttpOnly; Secure; SameSite=Lax/);
  });

  it('guards protected routes: no token, garbage token, ID token instead of access token', async () => {
    const account = await signUpAndLogin(server);
    const none = await server.http.get('/api/account');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: AUTH_MESSAGES.authenticationRequired });
    const garbage = await server.http.get('/api/account', { token: 'not-a-jwt' });
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual({ detail: AUTH_MESSAGES.invalidToken });
    const idToken = await server.http.get('/api/account', { token: account.idToken });
    expect(idToken.status).toBe(401);
  });

  it('validates sign-up fields with the shared messages', async () => {
    const res = await server.http.post('/api/auth/signup', { name: '', email: 'not-an-email', password: 'short' });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc[1]).sort()).toEqual(['email', 'name', 'password']);
  });
});
