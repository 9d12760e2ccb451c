import { CALLER_CACHE_TTL_MS } from '../../backend/src/modules/auth/users.service';
import { KEY_CACHE_TTL_MS } from '../../backend/src/modules/api-keys/api-keys.service';
import { latestMailedCode, signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { sql } from './jobs-fixtures';

jest.setTimeout(120_000);

/**
 * Authentication reuses the caller's user row and API key for a moment
 * (docs/adr/0110-api-throughput.md). These prove that a revocation is still
 * seen at once on the instance that made it, and within the cache's bound
 * when written elsewhere.
 */

const issuedAt = (token: string): number => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).iat;

/** Revocation compares whole seconds: wait (polling the clock) until the token's second has passed. */
async function afterIssueSecond(token: string): Promise<void> {
  while (Math.floor(Date.now() / 1000) <= issuedAt(token)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Polls until `check` holds; answers how long it took. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Date.now() - started;
}

describe('caller cache: one instance', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  const jobsWith = (token: string) => server.http.get('/api/jobs', { token });

  it('refuses a token at once after a global sign-out, even right after it was accepted', async () => {
    const user = await signUpAndLogin(server);
    await afterIssueSecond(user.accessToken);
    expect((await jobsWith(user.accessToken)).status).toBe(200);
    expect((await server.http.post('/api/auth/global-sign-out', {}, { token: user.accessToken })).status).toBe(200);
    const refused = await jobsWith(user.accessToken);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ detail: 'Invalid or expired token' });
  });

  it('refuses tokens at once after a password reset (it ends every session)', async () => {
    const user = await signUpAndLogin(server);
    await afterIssueSecond(user.accessToken);
    expect((await jobsWith(user.accessToken)).status).toBe(200);
    expect((await server.http.post('/api/auth/forgot-password', { email: user.email })).status).toBe(200);
    const code = await latestMailedCode(server, user.email);
    const reset = await server.http.post('/api/auth/reset-password', { email: user.email, code, new_password: `${user.password}-new` });
    expect(reset.status).toBe(200);
    expect((await jobsWith(user.accessToken)).status).toBe(401);
  });

  it('refuses the token and the API key of a deleted account at once', async () => {
    const user = await signUpAndLogin(server);
    const key = (await server.http.post('/api/api-keys/generate', { name: 'k' }, { token: user.accessToken })).body.api_key;
    const prog = () => server.http.get('/prog/jobs', { headers: { 'x-api-key': key, 'x-user-id': user.userId } });
    expect((await jobsWith(user.accessToken)).status).toBe(200);
    expect((await prog()).status).toBe(200);
    expect((await server.http.delete('/api/account', { token: user.accessToken })).status).toBe(200);
    expect((await jobsWith(user.accessToken)).status).toBe(401);
    expect((await prog()).status).toBe(401);
  });

  it('refuses a deleted API key at once', async () => {
    const user = await signUpAndLogin(server);
    const generated = (await server.http.post('/api/api-keys/generate', { name: 'k' }, { token: user.accessToken })).body;
    const prog = () => server.http.get('/prog/jobs', { headers: { authorization: `Bearer ${generated.api_key}` } });
    expect((await prog()).status).toBe(200);
    expect((await server.http.delete(`/api/api-keys/${generated.key_id}`, { token: user.accessToken })).status).toBe(200);
    const refused = await prog();
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ detail: 'Invalid API key' });
  });
});

/**
 * Another instance (or the admin CLI) changes the rows without this
 * instance's services: written here straight to the database. (Two Nest apps
 * in one test process would share passport's strategy registry, so the
 * second app's bearer check would serve both; a direct write is the faithful
 * form of "written elsewhere".)
 */
describe('caller cache: a change written by another instance', () => {
  let server: TestServer;
  let user: SignedInAccount;

  beforeAll(async () => {
    server = await startTestServer();
    user = await signUpAndLogin(server);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('a deleted API key stops working within the cache bound', async () => {
    const generated = (await server.http.post('/api/api-keys/generate', { name: 'k' }, { token: user.accessToken })).body;
    const prog = () => server.http.get('/prog/jobs', { headers: { authorization: `Bearer ${generated.api_key}` } });
    expect((await prog()).status).toBe(200);
    await sql(server, 'DELETE FROM api_keys WHERE id = $1', [generated.key_id]);
    // The bound is the cache's lifetime; the rest is slack for a loaded machine.
    const took = await within(KEY_CACHE_TTL_MS + 2_000, async () => (await prog()).status === 401);
    expect(took).toBeLessThanOrEqual(KEY_CACHE_TTL_MS + 2_000);
  });

  it('a global sign-out is refused within the cache bound, and a deleted user too', async () => {
    await afterIssueSecond(user.accessToken);
    expect((await server.http.get('/api/jobs', { token: user.accessToken })).status).toBe(200);
    await sql(server, 'UPDATE users SET sessions_revoked_at = now() WHERE id = $1', [user.userId]);
    const took = await within(CALLER_CACHE_TTL_MS + 2_000, async () => (await server.http.get('/api/jobs', { token: user.accessToken })).status === 401);
    expect(took).toBeLessThanOrEqual(CALLER_CACHE_TTL_MS + 2_000);

    const other = await signUpAndLogin(server);
    expect((await server.http.get('/api/jobs', { token: other.accessToken })).status).toBe(200);
    await sql(server, 'DELETE FROM users WHERE id = $1', [other.userId]);
    await within(CALLER_CACHE_TTL_MS + 2_000, async () => (await server.http.get('/api/jobs', { token: other.accessToken })).status === 401);
  });
});
