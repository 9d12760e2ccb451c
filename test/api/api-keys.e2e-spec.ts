import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { sql } from './jobs-fixtures';

jest.setTimeout(60_000);

describe('API keys (/api/api-keys)', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });

  beforeAll(async () => {
    server = await startTestServer();
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('generates a key shown once, stored only as a hash, recognisable by its prefix', async () => {
    const res = await server.http.post('/api/api-keys/generate', { name: '  CI pipeline  ' }, as(alice));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      key_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'CI pipeline',
      prefix: res.body.api_key.slice(0, 14),
      api_key: expect.stringMatching(/^cb_live_[0-9a-f]{48}$/),
      user_id: alice.userId,
      account_id: alice.userId,
      created_at: expect.any(String),
      last_used_at: null,
    });
    const rows = await sql(server, 'SELECT * FROM api_keys WHERE id = $1', [res.body.key_id]);
    expect(JSON.stringify(rows)).not.toContain(res.body.api_key);
    expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(server.logs.text()).not.toContain(res.body.api_key);

    const list = await server.http.get('/api/api-keys', as(alice));
    expect(list.status).toBe(200);
    const listed = list.body.find((k: { key_id: string }) => k.key_id === res.body.key_id);
    expect(listed).toEqual({ key_id: res.body.key_id, name: 'CI pipeline', prefix: res.body.prefix, created_at: res.body.created_at, last_used_at: null });
    expect(JSON.stringify(list.body)).not.toContain(res.body.api_key);
  });

  it.each([
    ['missing', {}],
    ['empty', { name: '' }],
    ['blank', { name: '   ' }],
    ['not text', { name: 7 }],
  ])('refuses a %s name with the spec message', async (_label, body) => {
    const res = await server.http.post('/api/api-keys/generate', body, as(alice));
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'], msg: 'Please enter a name for the API key' })]);
  });

  it('refuses names over 100 characters and unknown fields', async () => {
    const long = await server.http.post('/api/api-keys/generate', { name: 'k'.repeat(101) }, as(alice));
    expect(long.status).toBe(422);
    expect(long.body.detail[0].msg).toBe('API key name must be at most 100 characters');
    const extra = await server.http.post('/api/api-keys/generate', { name: 'ok', scope: 'all' }, as(alice));
    expect(extra.status).toBe(422);
  });

  it('lists and deletes only the caller’s keys (B gets 404 on A’s key)', async () => {
    const key = (await server.http.post('/api/api-keys/generate', { name: 'alice-key' }, as(alice))).body;
    const bobList = await server.http.get('/api/api-keys', as(bob));
    expect(bobList.body).toEqual([]);
    const stolen = await server.http.delete(`/api/api-keys/${key.key_id}`, as(bob));
    expect(stolen.status).toBe(404);
    expect((await server.http.get('/api/api-keys', as(alice))).body.map((k: { key_id: string }) => k.key_id)).toContain(key.key_id);

    const del = await server.http.delete(`/api/api-keys/${key.key_id}`, as(alice));
    expect(del.status).toBe(200);
    expect((await server.http.get('/api/api-keys', as(alice))).body.map((k: { key_id: string }) => k.key_id)).not.toContain(key.key_id);
    expect((await server.http.delete(`/api/api-keys/${key.key_id}`, as(alice))).status).toBe(404);
    expect((await server.http.delete('/api/api-keys/not-a-uuid', as(alice))).status).toBe(404);
    // A deleted key no longer opens the public API.
    const prog = await server.http.get('/prog/jobs', { headers: { 'x-api-key': key.api_key, 'x-user-id': alice.userId } });
    expect(prog.status).toBe(401);
  });

  it('caps the keys one user may hold', async () => {
    const carol = await signUpAndLogin(server);
    for (let i = 0; i < 20; i += 1) expect((await server.http.post('/api/api-keys/generate', { name: `k${i}` }, as(carol))).status).toBe(200);
    const over = await server.http.post('/api/api-keys/generate', { name: 'one-too-many' }, as(carol));
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ detail: 'You can have at most 20 API keys; delete one to generate another' });
    const [first] = (await server.http.get('/api/api-keys', as(carol))).body;
    await server.http.delete(`/api/api-keys/${first.key_id}`, as(carol));
    expect((await server.http.post('/api/api-keys/generate', { name: 'replacement' }, as(carol))).status).toBe(200);
  });

  it('requires a bearer token', async () => {
    expect((await server.http.get('/api/api-keys')).status).toBe(401);
    expect((await server.http.post('/api/api-keys/generate', { name: 'x' })).status).toBe(401);
    expect((await server.http.delete('/api/api-keys/00000000-0000-4000-8000-000000000000')).status).toBe(401);
  });
});
