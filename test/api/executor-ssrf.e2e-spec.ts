import { HttpTarget } from '../fakes/http-target';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures, schedulerPassed } from './scheduler-fixtures';

jest.setTimeout(60_000);

/**
 * Private targets are refused here (as in production); only the name
 * `localhost` is trusted by the operator's allowlist, so a redirect from it
 * to a private address shows the per-hop check.
 */
describe('executor: SSRF protection and redirects', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let userId: string;
  let port: string;

  beforeAll(async () => {
    target = await HttpTarget.start();
    port = new URL(target.url).port;
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, ALLOW_PRIVATE_TARGETS: 'false', PRIVATE_TARGET_ALLOWLIST: 'localhost' });
    db = await SchedulerFixtures.connect(server.database.url);
    userId = await db.user('pro');
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  async function finishedRun(url: string): Promise<any> {
    const jobId = await db.job(userId, { url, nextRunAt: new Date(Date.now() + 100) });
    const [run] = await eventually(async () => {
      const runs = await db.runs(jobId);
      return runs[0]?.state === 'done' ? runs : null;
    });
    return run;
  }

  it('refuses a redirect to a private address, naming the reason, without retrying', async () => {
    target.on('/hop', (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/internal` });
      res.end();
    });
    const run = await finishedRun(`http://localhost:${port}/hop`);
    expect(run.status).toBe('failed');
    expect(run.error_message).toBe('Blocked: 127.0.0.1 is a loopback, private, link-local, metadata or reserved address; requests to internal networks are not allowed');
    expect(target.requests('/hop')).toHaveLength(1);
    expect(target.requests('/internal')).toHaveLength(0);
    await schedulerPassed(db, `${target.url}/sentinel`, 300); // a retry would have been due by then
    expect(await db.query(`SELECT * FROM job_runs WHERE job_id = $1`, [run.job_id])).toHaveLength(1);
  });

  it('refuses the cloud metadata address outright', async () => {
    const run = await finishedRun('http://169.254.169.254/latest/meta-data/');
    expect(run.error_message).toMatch(/^Blocked: 169\.254\.169\.254 is a loopback, private, link-local, metadata or reserved address/);
  });

  it('follows up to 5 redirects to allowed hosts, turning a 303 into a GET', async () => {
    target.on('/r1', (_req, res) => {
      res.writeHead(303, { location: '/r2' });
      res.end();
    });
    target.on('/r2', (_req, res) => {
      res.writeHead(307, { location: `http://localhost:${port}/landing` });
      res.end();
    });
    const jobId = await db.job(userId, { url: `http://localhost:${port}/r1`, method: 'POST', body: 'payload', nextRunAt: new Date(Date.now() + 100) });
    const run = await eventually(async () => (await db.runs(jobId)).find((r) => r.state === 'done'));
    expect(run).toMatchObject({ status: 'success', response_code: 200 });
    expect(target.requests('/r1')[0].method).toBe('POST');
    expect(target.requests('/landing')[0].method).toBe('GET');
    expect(target.requests('/landing')[0].body).toBe('');
  });

  it('stops after 5 redirects', async () => {
    target.on('/loop', (_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    });
    const run = await finishedRun(`http://localhost:${port}/loop`);
    expect(run).toMatchObject({ status: 'failed', response_code: 302, error_message: 'Too many redirects: more than 5' });
    expect(target.requests('/loop')).toHaveLength(6);
  });
});
