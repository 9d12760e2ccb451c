import { spawn } from 'node:child_process';
import path from 'node:path';
import { HttpTarget, type ReceivedRequest } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures } from './scheduler-fixtures';

jest.setTimeout(60_000);

const ISSUER = 'https://cron.example.test';
const EXAMPLES = path.join(__dirname, '../../docs/examples');

interface Verdict {
  signature: boolean;
  claims?: Record<string, unknown> | null;
}

/**
 * Signed requests, checked the way a target would: the verification snippets
 * of docs/signed-requests.md (JavaScript and Python, run as they are
 * published) verify the requests a local target received from scheduled runs
 * and manual runs, with the secret the API showed once and the keys it
 * publishes.
 */
describe('signed requests to targets', () => {
  let server: TestServer;
  let target: HttpTarget;
  let db: SchedulerFixtures;
  let alice: SignedInAccount;
  let jwks: unknown;
  const as = () => ({ token: alice.accessToken });

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, ADMIN_TOKEN: TEST_ADMIN_TOKEN, PUBLIC_URL: ISSUER, EXECUTION_TIMEOUT_MS: '5000' });
    db = await SchedulerFixtures.connect(server.database.url);
    alice = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
    const published = await server.http.get('/.well-known/target-jwks.json');
    expect(published.status).toBe(200);
    expect(published.body.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) })]);
    expect(published.body.keys[0]).not.toHaveProperty('d');
    jwks = published.body;
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await target?.close();
  });

  /**
   * What the published snippets make of a received request for a job URL and secret. They run as child
   * processes, asynchronously: the server under test shares this process's event loop.
   */
  const verify = async (request: ReceivedRequest, url: string, secret: string, audience: string | null = null): Promise<{ js: Verdict; py: Verdict }> => {
    const input = JSON.stringify({ headers: request.headers, secret, method: request.method, url, body: request.body, ...(audience ? { issuer: ISSUER, audience, jwks } : {}) });
    const run = (command: string, file: string) =>
      new Promise<Verdict>((resolve, reject) => {
        const child = spawn(command, [path.join(EXAMPLES, file)], { timeout: 20_000 });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Verdict) : reject(new Error(`${file} failed: ${err}`))));
        child.stdin.end(input);
      });
    const [js, py] = await Promise.all([run(process.execPath, 'verify-cronbeam.mjs'), run('python3', 'verify_cronbeam.py')]);
    return { js, py };
  };

  const create = async (extra: Record<string, unknown>) => {
    const res = await server.http.post('/api/jobs', jobDefinition({ cron_expression: '0 0 1 1 *', ...extra }), as());
    expect(res.status).toBe(200);
    return res.body as { job_id: string; url: string; signing_secret: string };
  };

  it('signs every scheduled request with the job secret and the identity token, which the published snippets verify', async () => {
    const url = `${target.url}/signed?x=1`;
    const job = await create({ url, method: 'POST', body: '{"report":"daily"}', identity_token: {} });
    expect(job.signing_secret).toMatch(/^cbsig_[A-Za-z0-9_-]{43}$/);
    // Shown once: never again in any answer, and sealed at rest.
    const read = await server.http.get(`/api/jobs/${job.job_id}`, as());
    expect(read.body).not.toHaveProperty('signing_secret');
    expect(read.body.identity_token).toEqual({ audience: null });
    expect(JSON.stringify((await server.http.get('/api/jobs', as())).body)).not.toContain(job.signing_secret);
    const [stored] = await sql<{ signing_secret: string }>(server, `SELECT signing_secret FROM jobs WHERE id = $1`, [job.job_id]);
    expect(stored.signing_secret).not.toContain(job.signing_secret.slice(6));
    expect(stored.signing_secret.startsWith('cb1')).toBe(true);

    await db.query(`UPDATE jobs SET next_run_at = now() + interval '200 milliseconds' WHERE id = $1`, [job.job_id]);
    await target.waitFor(() => target.requests('/signed').length === 1);
    const [request] = target.requests('/signed');
    expect(request.headers['x-cronbeam-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const { js, py } = await verify(request, url, job.signing_secret, url);
    expect(js.signature).toBe(true);
    expect(py.signature).toBe(true);
    expect(js.claims).toMatchObject({ iss: ISSUER, aud: url, job_id: job.job_id, sub: `job:${job.job_id}`, execution_id: request.headers['x-cronbeam-execution-id'] });
    expect((js.claims!.exp as number) - (js.claims!.iat as number)).toBe(300);

    // Anything changed on the way fails: the body, the method, the secret, another audience.
    expect((await verify({ ...request, body: '{"report":"weekly"}' }, url, job.signing_secret)).js.signature).toBe(false);
    expect((await verify({ ...request, body: '{"report":"weekly"}' }, url, job.signing_secret)).py.signature).toBe(false);
    expect((await verify({ ...request, method: 'PUT' }, url, job.signing_secret)).py.signature).toBe(false);
    expect((await verify(request, url, `${job.signing_secret}x`)).js.signature).toBe(false);
    expect((await verify(request, url, job.signing_secret, 'https://other.example/')).js.claims).toEqual({ error: 'wrong audience' });
  });

  it('sends the token for a configured audience, and no Authorization at all to a job that did not ask', async () => {
    const url = `${target.url}/audience`;
    const job = await create({ url, identity_token: { audience: 'https://api.example.test/jobs' } });
    const run = await server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as());
    expect(run.body.status).toBe('success');
    const [request] = target.requests('/audience');
    const { js } = await verify(request, url, job.signing_secret, 'https://api.example.test/jobs');
    expect(js).toMatchObject({ signature: true, claims: { aud: 'https://api.example.test/jobs', execution_id: run.body.run_id } });

    const plainUrl = `${target.url}/plain`;
    const plain = await create({ url: plainUrl });
    await server.http.post(`/api/jobs/${plain.job_id}/run`, undefined, as());
    const [unsigned] = target.requests('/plain');
    expect(unsigned.headers.authorization).toBeUndefined();
    expect((await verify(unsigned, plainUrl, plain.signing_secret)).py.signature).toBe(true);
  });

  it('refuses an identity token beside an Authorization header of the job, naming the field', async () => {
    const res = await server.http.post('/api/jobs', jobDefinition({ headers: { Authorization: 'Bearer mine' }, identity_token: {} }), as());
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'identity_token'], msg: expect.stringContaining('Authorization') })]);
    const bad = await server.http.post('/api/jobs', jobDefinition({ identity_token: { audience: 'has space' } }), as());
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'identity_token', 'audience']);
  });

  it('rotates the secret: both sign during the overlap, only the new one after a rotation without overlap', async () => {
    const url = `${target.url}/rotated`;
    const job = await create({ url });
    const rotated = await server.http.post(`/api/jobs/${job.job_id}/signing-secret`, { overlap_seconds: 3600 }, as());
    expect(rotated.status).toBe(200);
    expect(rotated.body.signing_secret).not.toBe(job.signing_secret);
    expect(Date.parse(rotated.body.previous_valid_until) - Date.now()).toBeGreaterThan(3_500_000);
    await server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as());
    const during = target.requests('/rotated')[0];
    expect(during.headers['x-cronbeam-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect((await verify(during, url, job.signing_secret)).js.signature).toBe(true);
    expect((await verify(during, url, rotated.body.signing_secret)).py.signature).toBe(true);

    const again = await server.http.post(`/api/jobs/${job.job_id}/signing-secret`, { overlap_seconds: 0 }, as());
    expect(again.body.previous_valid_until).toBeNull();
    await server.http.post(`/api/jobs/${job.job_id}/run`, undefined, as());
    const after = await eventually(async () => target.requests('/rotated')[1]);
    expect((await verify(after, url, again.body.signing_secret)).js.signature).toBe(true);
    expect((await verify(after, url, rotated.body.signing_secret)).py.signature).toBe(false);

    const other = await signUpAndLogin(server);
    expect((await server.http.post(`/api/jobs/${job.job_id}/signing-secret`, {}, { token: other.accessToken })).status).toBe(404);
    expect((await server.http.post(`/api/jobs/${job.job_id}/signing-secret`, { overlap_seconds: -1 }, as())).body.detail[0].loc).toEqual(['body', 'overlap_seconds']);
  });
});
