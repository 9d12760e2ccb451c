import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { sql } from './jobs-fixtures';

jest.setTimeout(60_000);

/** Credentials a customer's job sends to its own endpoint. */
const JOB_HEADERS = {
  Cookie: 'session=cookie-secret-1',
  'X-Api-Key': 'api-key-secret-2',
  'X-Custom-Signature': 'custom-secret-3',
  Authorization: 'Bearer bearer-secret-4',
};
const JOB_HEADER_NAMES = Object.keys(JOB_HEADERS).map((h) => h.toLowerCase());

/**
 * Redirects met by a job's request, through the real API (a job created and
 * run now). Two loopback listeners on different ports are two origins: the
 * job's own endpoint and somebody else's.
 */
describe("security: redirects never carry a job's headers or body to another origin", () => {
  let server: TestServer;
  let own: HttpTarget;
  let other: HttpTarget;
  let user: SignedInAccount;

  beforeAll(async () => {
    [own, other] = await Promise.all([HttpTarget.start(), HttpTarget.start()]);
    server = await startTestServer({ ALLOW_PRIVATE_TARGETS: 'true' });
    user = await signUpAndLogin(server);
    await sql(server, `UPDATE accounts SET plan = 'pro' WHERE id = $1`, [user.userId]); // room for more than the free plan's jobs
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([own?.close(), other?.close()]);
  });

  /** Creates the job through the API and runs it now; answers the run as the API reports it. */
  async function runJob(url: string, extra: { method?: string; body?: string } = {}): Promise<any> {
    const created = await server.http.post(
      '/api/jobs',
      { name: `redirect-${Math.random().toString(36).slice(2, 10)}`, url, cron_expression: '0 0 1 1 *', headers: JOB_HEADERS, ...extra },
      { token: user.accessToken },
    );
    expect(created.status).toBe(200);
    const run = await server.http.post(`/api/jobs/${created.body.job_id}/run`, undefined, { token: user.accessToken });
    expect(run.status).toBe(200);
    return run.body;
  }

  function expectJobHeaders(headers: Record<string, unknown>, present: boolean): void {
    for (const name of JOB_HEADER_NAMES) expect({ name, present: name in headers }).toEqual({ name, present });
  }

  it("sends none of the job's headers to another origin, only the executor's own", async () => {
    own.on('/to-other', (_req, res) => {
      res.writeHead(302, { location: `${other.url}/landing` });
      res.end();
    });
    const run = await runJob(`${own.url}/to-other`);
    expect(run).toMatchObject({ status: 'success', response_code: 200, error_message: null });

    expectJobHeaders(own.requests('/to-other')[0].headers, true);
    const [landing] = other.requests('/landing');
    expectJobHeaders(landing.headers, false);
    expect(landing.headers['user-agent']).toMatch(/^Cronbeam\//);
    expect(landing.headers['x-cronbeam-execution-id']).toBe(run.run_id);
  });

  it("keeps the job's headers on a redirect within its origin", async () => {
    own.on('/same-start', (_req, res) => {
      res.writeHead(301, { location: '/same-landing' });
      res.end();
    });
    const run = await runJob(`${own.url}/same-start`);
    expect(run).toMatchObject({ status: 'success', response_code: 200 });
    const [landing] = own.requests('/same-landing');
    expectJobHeaders(landing.headers, true);
    expect(landing.headers.cookie).toBe(JOB_HEADERS.Cookie);
    expect(landing.headers['x-api-key']).toBe(JOB_HEADERS['X-Api-Key']);
  });

  it('does not hand the headers back when another origin redirects to the job origin again', async () => {
    own.on('/bounce-out', (_req, res) => {
      res.writeHead(302, { location: `${other.url}/bounce-back` });
      res.end();
    });
    other.on('/bounce-back', (_req, res) => {
      res.writeHead(302, { location: `${own.url}/bounce-home` });
      res.end();
    });
    const run = await runJob(`${own.url}/bounce-out`);
    expect(run).toMatchObject({ status: 'success', response_code: 200 });
    expectJobHeaders(other.requests('/bounce-back')[0].headers, false);
    // The other origin chose where the request went next: whatever it points at gets nothing of the job.
    expectJobHeaders(own.requests('/bounce-home')[0].headers, false);
  });

  it.each([307, 308])('refuses a %i that would resend the body to another origin, and says so', async (status) => {
    own.on(`/post-${status}`, (_req, res) => {
      res.writeHead(status, { location: `${other.url}/post-landing-${status}` });
      res.end();
    });
    const run = await runJob(`${own.url}/post-${status}`, { method: 'POST', body: '{"token":"body-secret-5"}' });
    expect(run).toMatchObject({
      status: 'failed',
      response_code: status,
      error_message: `Redirect refused: the target answered ${status} to another origin (${other.url}), which would resend the request body there`,
    });
    expect(own.requests(`/post-${status}`)[0].body).toBe('{"token":"body-secret-5"}');
    expect(other.requests(`/post-landing-${status}`)).toHaveLength(0);
  });

  it('resends the body of a 307 within the origin, with the headers', async () => {
    own.on('/post-same', (_req, res) => {
      res.writeHead(307, { location: '/post-same-landing' });
      res.end();
    });
    const run = await runJob(`${own.url}/post-same`, { method: 'POST', body: 'payload' });
    expect(run).toMatchObject({ status: 'success', response_code: 200 });
    const [landing] = own.requests('/post-same-landing');
    expect(landing).toMatchObject({ method: 'POST', body: 'payload' });
    expectJobHeaders(landing.headers, true);
  });

  it("turns a cross-origin 303 after a POST into a bare GET: no body, none of the job's headers", async () => {
    own.on('/post-303', (_req, res) => {
      res.writeHead(303, { location: `${other.url}/after-post` });
      res.end();
    });
    const run = await runJob(`${own.url}/post-303`, { method: 'POST', body: 'payload' });
    expect(run).toMatchObject({ status: 'success', response_code: 200 });
    const [after] = other.requests('/after-post');
    expect(after).toMatchObject({ method: 'GET', body: '' });
    expectJobHeaders(after.headers, false);
  });
});
