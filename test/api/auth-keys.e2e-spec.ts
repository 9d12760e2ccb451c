import { Client } from 'pg';
import { signUpAndLogin } from '../support/accounts';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';

// The api project's testTimeout is not applied to single-file runs; booting on the embedded database takes seconds.
jest.setTimeout(90_000);

const kidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).kid as string;

/** Signing keys live in the database: they survive restarts, rotate when old, and retire only after their tokens expire. */
describe('token signing keys', () => {
  let database: TestDatabase;
  let server: TestServer | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(5, { migrated: true });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function sql(query: string, params: unknown[] = []) {
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      return (await db.query(query, params)).rows;
    } finally {
      await db.end();
    }
  }

  it('keeps the key across restarts, rotates an old one and keeps verifying its tokens until they expire', async () => {
    server = await startTestServer({}, database);
    const before = await signUpAndLogin(server);
    const firstKid = kidOf(before.accessToken);
    await server.close();

    // A restart signs with the same key: tokens issued before it still work.
    server = await startTestServer({}, database);
    expect((await server.http.get('/api/account', { token: before.accessToken })).status).toBe(200);
    expect(kidOf((await server.http.post('/api/auth/login', { email: before.email, password: before.password })).body.access_token)).toBe(firstKid);
    await server.close();

    // The key grows older than AUTH_SIGNING_KEY_MAX_AGE_DAYS: the next start signs with a new one.
    await sql(`UPDATE signing_keys SET created_at = now() - interval '91 days'`);
    server = await startTestServer({}, database);
    const after = await server.http.post('/api/auth/login', { email: before.email, password: before.password });
    const secondKid = kidOf(after.body.access_token);
    expect(secondKid).not.toBe(firstKid);
    const published = (await server.http.get('/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    expect(published).toEqual([secondKid, firstKid]);
    expect((await server.http.get('/api/account', { token: before.accessToken })).status).toBe(200);
    expect((await server.http.get('/api/account', { token: after.body.access_token })).status).toBe(200);

    // Once the retired key's last tokens have expired it is no longer published.
    await sql(`UPDATE signing_keys SET retired_at = now() - interval '2 hours' WHERE kid = $1`, [firstKid]);
    const later = (await server.http.get('/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    expect(later).toEqual([secondKid]);
  });
});
