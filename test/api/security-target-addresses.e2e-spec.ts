import type { LookupAddress } from 'node:dns';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startProductionServerWithUser } from '../support/production-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { JOB_MESSAGES } from '@cronbeam/shared/jobs/job-rules';
import { REFUSED_WHEN_RUN } from '../../backend/src/modules/jobs/job-target-check';
import { jobDefinition, sql } from './jobs-fixtures';

jest.setTimeout(120_000);

/** A name of the service's own network, as an internal DNS zone would hold it. */
const INTERNAL_NAME = 'billing-db.corp.test';
const INTERNAL_ADDRESS = '10.20.30.40';

/**
 * One record of an internal DNS zone, served to the application in this
 * process; every other name goes to the system resolver. The executor's
 * guarded lookup (the code under test) runs unchanged on what it answers.
 */
jest.mock('node:dns', () => {
  const real = jest.requireActual<typeof import('node:dns')>('node:dns');
  return {
    ...real,
    lookup: (hostname: string, options: unknown, callback: (error: Error | null, addresses: LookupAddress[]) => void) => {
      if (hostname !== 'billing-db.corp.test') return (real.lookup as (...args: unknown[]) => void)(hostname, options, callback);
      process.nextTick(() => callback(null, [{ address: '10.20.30.40', family: 4 }]));
    },
  };
});

const BLOCKED_TAIL = 'a loopback, private, link-local, metadata or reserved address; requests to internal networks are not allowed';

/** IPv6 literals that reach a refused IPv4 address (or no public host at all) and passed the policy before. */
const IPV6_LITERALS: Array<[string, string]> = [
  ['[::7f00:1]', 'IPv4-compatible 127.0.0.1'],
  ['[64:ff9b::7f00:1]', 'NAT64 of 127.0.0.1'],
  ['[64:ff9b::a9fe:a9fe]', 'NAT64 of the metadata address'],
  ['[2002:7f00:1::1]', '6to4 of 127.0.0.1'],
  ['[2002:a9fe:a9fe::1]', '6to4 of the metadata address'],
  ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', 'Teredo'],
  ['[::ffff:0:7f00:1]', 'IPv4-translated 127.0.0.1'],
];

/** Private targets are refused here, as in production; outside production a literal is refused when the job runs. */
describe('security: target addresses (jobs run now)', () => {
  let server: TestServer;
  let target: HttpTarget;
  let user: SignedInAccount;

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer({ ALLOW_PRIVATE_TARGETS: 'false' });
    user = await signUpAndLogin(server);
    await sql(server, `UPDATE accounts SET plan = 'pro' WHERE id = $1`, [user.userId]); // room for more than the free plan's jobs
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  async function createAndRun(url: string): Promise<{ jobId: string; run: any }> {
    const created = await server.http.post('/api/jobs', jobDefinition({ url }), { token: user.accessToken });
    expect(created.status).toBe(200);
    const run = await server.http.post(`/api/jobs/${created.body.job_id}/run`, undefined, { token: user.accessToken });
    expect(run.status).toBe(200);
    return { jobId: created.body.job_id, run: run.body };
  }

  it('says an internal name resolves to an internal address without telling which one', async () => {
    const { jobId, run } = await createAndRun(`http://${INTERNAL_NAME}/invoices`);
    const message = `Blocked: ${INTERNAL_NAME} resolves to ${BLOCKED_TAIL}`;
    expect(run).toMatchObject({ status: 'failed', response_code: null, error_message: message });
    const logs = await server.http.get(`/api/jobs/${jobId}/logs`, { token: user.accessToken });
    expect(logs.body.logs).toEqual([expect.objectContaining({ status: 'failed', error_message: message })]);
    expect(JSON.stringify([run, logs.body])).not.toContain(INTERNAL_ADDRESS);
  });

  it.each(IPV6_LITERALS)('refuses %s (%s) before connecting', async (host) => {
    const { run } = await createAndRun(`http://${host}:${new URL(target.url).port}/x`);
    expect(run).toMatchObject({ status: 'failed', response_code: null, error_message: `Blocked: ${host} is ${BLOCKED_TAIL}` });
  });

  it('warns before saving a job whose runs this server would refuse, with the policy the runs are refused by', async () => {
    const check = (url: string) => server.http.post('/api/jobs/target-check', { url }, { token: user.accessToken });
    for (const url of ['http://localhost:3000/hook', 'http://127.0.0.1/x', 'http://[::1]/x', 'http://10.1.2.3/x', `http://[::ffff:127.0.0.1]:${new URL(target.url).port}/x`]) {
      expect({ url, ...(await check(url)) }).toMatchObject({ url, status: 200, body: { warning: REFUSED_WHEN_RUN } });
    }
    // The run of such a job is refused by the same rule, and a public name passes both.
    const { run } = await createAndRun('http://localhost:3000/hook');
    expect(run).toMatchObject({ status: 'failed', error_message: `Blocked: localhost is ${BLOCKED_TAIL}` });
    expect(await check('https://example.com/hook')).toMatchObject({ status: 200, body: { warning: null } });
    // Where saving is refused (cloud metadata names), the check is refused alike; and it needs a session and a URL.
    expect((await check('http://metadata.google.internal/')).body).toEqual({
      detail: [{ loc: ['body', 'url'], msg: JOB_MESSAGES.urlPrivate, type: 'value_error' }],
    });
    expect((await server.http.post('/api/jobs/target-check', { url: 'https://example.com' })).status).toBe(401);
    expect((await server.http.post('/api/jobs/target-check', { url: 'ftp://x' }, { token: user.accessToken })).status).toBe(422);
  });

  it('still refuses IPv4-mapped loopback in the spelling a URL gives it', async () => {
    const { run } = await createAndRun(`http://[::ffff:127.0.0.1]:${new URL(target.url).port}/x`);
    expect(run).toMatchObject({ status: 'failed', error_message: `Blocked: [::ffff:7f00:1] is ${BLOCKED_TAIL}` });
    expect(target.received).toHaveLength(0);
  });
});

describe('security: target addresses (saving a job in production)', () => {
  let server: TestServer;
  let user: SignedInAccount;

  beforeAll(async () => {
    ({ server, user } = await startProductionServerWithUser({ PUBLIC_URL: 'https://cronbeam.example' }));
    await sql(server, `UPDATE accounts SET plan = 'pro' WHERE id = $1`, [user.userId]); // so that only the target can refuse a job
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(IPV6_LITERALS)('refuses a job to %s (%s) when it is saved, test-run and checked before saving', async (host) => {
    const url = `http://${host}/x`;
    const created = await server.http.post('/api/jobs', jobDefinition({ url }), { token: user.accessToken });
    const tested = await server.http.post('/api/jobs/test', { url, method: 'GET' }, { token: user.accessToken });
    const checked = await server.http.post('/api/jobs/target-check', { url }, { token: user.accessToken });
    for (const res of [created, tested, checked]) {
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ['body', 'url'], msg: 'URL must not point to a private, loopback or link-local address', type: 'value_error' }]);
    }
  });
});
