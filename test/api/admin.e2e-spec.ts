import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(90_000);

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/** `npm run admin -- …` against the test server; resolves with the exit code and output. */
async function adminCli(server: TestServer, args: string[], token = TEST_ADMIN_TOKEN, publicUrl = server.baseUrl) {
  const env = { ...process.env, PUBLIC_URL: publicUrl, ADMIN_TOKEN: token, NODE_ENV: 'test' };
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'admin', '--', ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('operator API (/api/admin) and npm run admin', () => {
  let server: TestServer;
  let user: SignedInAccount;
  const admin = { headers: { 'x-admin-token': TEST_ADMIN_TOKEN } };

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    user = await signUpAndLogin(server, { name: 'Operator Target' });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('refuses a missing or wrong token', async () => {
    const attempts: Array<Record<string, string>> = [{}, { 'x-admin-token': 'wrong' }, { 'x-admin-token': `${TEST_ADMIN_TOKEN}x` }, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }];
    for (const headers of attempts) {
      const res = await server.http.get('/api/admin/users', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Invalid admin token' });
    }
    // A user's own access token is no admin token.
    expect((await server.http.get('/api/admin/users', { token: user.accessToken })).status).toBe(401);
  });

  it('lists users', async () => {
    const res = await server.http.get('/api/admin/users', admin);
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ user_id: user.userId, email: user.email, name: 'Operator Target', plan: 'free', email_verified: true, created_at: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
  });

  it('sets a plan by id or by email, which changes the job limit at once', async () => {
    const byId = await server.http.put(`/api/admin/users/${user.userId}/plan`, { plan: 'basic' }, admin);
    expect(byId.status).toBe(200);
    expect(byId.body.plan).toBe('basic');
    const byEmail = await server.http.put(`/api/admin/users/${encodeURIComponent(user.email.toUpperCase())}/plan`, { plan: 'unlimited' }, admin);
    expect(byEmail.body).toMatchObject({ user_id: user.userId, plan: 'unlimited' });
    expect(server.logs.lines.some((line) => line.includes('Operator changed a plan') && line.includes(user.userId) && line.includes('"to":"unlimited"'))).toBe(true);
    const stats = await server.http.get('/api/dashboard', { token: user.accessToken });
    expect(stats.body).toMatchObject({ plan: 'unlimited', max_jobs: 1_000_000 });
    await server.http.put(`/api/admin/users/${user.userId}/plan`, { plan: 'free' }, admin);
    for (let i = 0; i < 2; i += 1) await server.http.post('/api/jobs', jobDefinition(), { token: user.accessToken });
    expect((await server.http.post('/api/jobs', jobDefinition(), { token: user.accessToken })).status).toBe(403);
  });

  it('validates the plan and the user', async () => {
    const bad = await server.http.put(`/api/admin/users/${user.userId}/plan`, { plan: 'gold' }, admin);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'plan'], msg: 'Plan must be one of free, basic, pro, unlimited' });
    for (const who of ['nobody@example.test', '00000000-0000-4000-8000-000000000000', 'garbage']) {
      const res = await server.http.put(`/api/admin/users/${encodeURIComponent(who)}/plan`, { plan: 'pro' }, admin);
      expect(res.status).toBe(404);
    }
  });

  it('npm run admin -- list-users and set-plan work against the running server', async () => {
    const list = await adminCli(server, ['list-users']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(user.email);
    expect(list.stdout).toMatch(/\d+ users?\n$/);

    const set = await adminCli(server, ['set-plan', user.email, 'pro']);
    expect(set).toMatchObject({ code: 0, stdout: `${user.email} is now on the pro plan\n` });
    expect((await server.http.get('/api/dashboard', { token: user.accessToken })).body.plan).toBe('pro');

    const badPlan = await adminCli(server, ['set-plan', user.email, 'gold']);
    expect(badPlan.code).toBe(1);
    expect(badPlan.stderr).toContain('Plan must be one of free, basic, pro, unlimited');
    const wrongToken = await adminCli(server, ['list-users'], 'another-token-that-is-long-enough');
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('Invalid admin token');
    expect((await adminCli(server, ['frobnicate'])).code).toBe(2);
  });

  it('npm run admin -- --url reaches a server PUBLIC_URL does not name, and an unreachable one says how to name it', async () => {
    const elsewhere = 'http://127.0.0.1:9'; // the discard port: nothing answers HTTP there
    const viaFlag = await adminCli(server, ['--url', server.baseUrl, 'list-users'], TEST_ADMIN_TOKEN, elsewhere);
    expect(viaFlag.code).toBe(0);
    expect(viaFlag.stdout).toContain(user.email);
    const viaEquals = await adminCli(server, [`--url=${server.baseUrl}/`, 'list-users'], TEST_ADMIN_TOKEN, elsewhere);
    expect(viaEquals.code).toBe(0);
    const unreachable = await adminCli(server, ['list-users'], TEST_ADMIN_TOKEN, elsewhere);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`cannot reach ${elsewhere}`);
    expect(unreachable.stderr).toContain('--url http://host:port');
    const badUrl = await adminCli(server, ['--url', 'localhost:3000', 'list-users']);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain('--url must be an http(s) URL');
  });
});

describe('operator API without ADMIN_TOKEN', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('does not exist', async () => {
    expect((await server.http.get('/api/admin/users', { headers: { 'x-admin-token': 'anything-at-all-here-1234' } })).status).toBe(404);
    expect((await server.http.put('/api/admin/users/x@y.z/plan', { plan: 'pro' })).status).toBe(404);
  });
});
