import { CONTACT_MESSAGES } from '@cronbeam/shared/site/contact-rules';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin } from '../support/accounts';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';

jest.setTimeout(120_000);

/** Requests fired at once, split between the two instances. */
const BURST = 300;

/**
 * The limits counted in the database (common/rate-limit, DatabaseRateLimiter)
 * hold under real concurrency and across instances: two servers on one
 * database, a burst split between them, and exactly the limit gets through.
 */
describe('rate limits shared by every instance', () => {
  let database: TestDatabase;
  let one: TestServer;
  let two: TestServer;
  let target: HttpTarget;

  beforeAll(async () => {
    target = await HttpTarget.start();
    // Room for both servers' pools (5 connections each).
    database = await createTestDatabase(10, { migrated: true });
    const env = { PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' };
    one = await startTestServer(env, database);
    two = await startTestServer(env, database);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
    await target?.close();
  });

  const instance = (i: number) => (i % 2 === 0 ? one : two);

  it(`lets 5 of ${BURST} parallel contact messages from one address through, whichever instance takes them`, async () => {
    const message = { name: 'Ada Visitor', email: 'ada@example.test', subject: 'Burst', message: 'Hello' };
    const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => instance(i).http.post('/api/site/contact', message)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(5);
    expect(statuses.filter((s) => s !== 202 && s !== 429)).toEqual([]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body).toEqual({ detail: CONTACT_MESSAGES.rateLimited });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    const outbox = (await one.http.get('/api/dev/outbox')).body as Array<{ subject: string }>;
    expect(outbox.filter((m) => m.subject === '[Contact] Burst')).toHaveLength(5);
  });

  it(`sends 10 of ${BURST} parallel test requests of one user, whichever instance takes them`, async () => {
    const user = await signUpAndLogin(one);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => instance(i).http.post('/api/jobs/test', { url: `${target.url}/burst`, method: 'GET' }, { token: user.accessToken })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body).toEqual({ detail: 'Too many test requests. Please try again later.' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(target.requests('/burst')).toHaveLength(10);
    // Another user's budget is their own.
    const other = await signUpAndLogin(two);
    expect((await two.http.post('/api/jobs/test', { url: `${target.url}/burst`, method: 'GET' }, { token: other.accessToken })).status).toBe(200);
  });
});
