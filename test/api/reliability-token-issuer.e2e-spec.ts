import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { runServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually } from './scheduler-fixtures';
import { freePort } from '../support/free-port';

jest.setTimeout(180_000);

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const ENCRYPTION_KEY = 'dGVzdC1vbmx5IGtleSwgbmV2ZXIgdXNlIGl0IGFnYWk=';

describe('the token issuer at start-up', () => {
  it('production refuses to start without PUBLIC_URL (exit 78), saying instances would refuse each other\'s tokens', async () => {
    const run = runServerProcess({ NODE_ENV: 'production', ENCRYPTION_KEY, AUTH_ISSUER: 'https://cron.example.com' });
    expect(await run.exitCode()).toBe(78);
    expect(run.output()).toMatch(/PUBLIC_URL: required when NODE_ENV=production: .*the same for every instance; it is the issuer of sign-in tokens, so instances without it would refuse each other's tokens/);
  });
});


/** The real entry point in a process of its own (passport holds one bearer strategy per process), ready to serve. */
async function startInstance(databaseUrl: string, publicUrl: string) {
  const port = await freePort();
  const run = runServerProcess({ NODE_ENV: 'production', ENCRYPTION_KEY, PUBLIC_URL: publicUrl, DATABASE_URL: databaseUrl, PORT: String(port), SCHEDULER_ENABLED: 'false' });
  const baseUrl = `http://127.0.0.1:${port}`;
  await eventually(async () => {
    if (run.child.exitCode !== null) throw new Error(`instance exited with ${run.child.exitCode}:\n${run.output()}`);
    return fetch(`${baseUrl}/api/ready`).then((r) => r.ok, () => false);
  }, 90_000, 'instance ready');
  return {
    baseUrl,
    stop: async () => {
      if (run.child.exitCode === null) run.child.kill('SIGTERM');
      await run.exitCode(30_000);
    },
  };
}

const jobsAs = (baseUrl: string, token: string) => fetch(`${baseUrl}/api/jobs`, { headers: { authorization: `Bearer ${token}` } });

async function login(baseUrl: string, user: SignedInAccount): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * Several instances share one PostgreSQL database; the embedded database
 * serves the one process that opened it, so this part runs on PostgreSQL only
 * (reported as skipped without TEST_DATABASE_URL).
 */
(onPostgres ? describe : describe.skip)('two production instances on one database and one host, on different ports', () => {
  const PUBLIC_URL = 'https://cron.example.com';
  let database: TestDatabase;
  let inProcess: TestServer;
  let user: SignedInAccount;
  const instances: Array<Awaited<ReturnType<typeof startInstance>>> = [];

  beforeAll(async () => {
    database = await createTestDatabase(4, { migrated: true });
    // Production has no dev outbox to read the sign-up code from: sign up on a test server first, on the same database.
    const signUp = await startTestServer({}, database);
    user = await signUpAndLogin(signUp);
    await signUp.close();
    inProcess = await startTestServer({ NODE_ENV: 'production', PUBLIC_URL }, database);
  });

  afterAll(async () => {
    for (const instance of instances) await instance.stop();
    await inProcess?.close();
    await database?.drop();
  });

  it('accept each other\'s tokens, because both name the deployment\'s PUBLIC_URL as issuer; an instance with another PUBLIC_URL refuses them', async () => {
    const [other, elsewhere] = await Promise.all([startInstance(database.url, PUBLIC_URL), startInstance(database.url, 'https://another.example.com')]);
    instances.push(other, elsewhere);
    expect(new URL(other.baseUrl).port).not.toBe(new URL(inProcess.baseUrl).port);

    const fromInProcess = await login(inProcess.baseUrl, user);
    const fromOther = await login(other.baseUrl, user);
    expect((await jobsAs(other.baseUrl, fromInProcess)).status).toBe(200);
    expect((await jobsAs(inProcess.baseUrl, fromOther)).status).toBe(200);

    // The issuer check is real: a deployment with another address refuses both.
    for (const token of [fromInProcess, fromOther]) {
      const refused = await jobsAs(elsewhere.baseUrl, token);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ detail: AUTH_MESSAGES.invalidToken });
    }
  });
});
