import fc from 'fast-check';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { jobDefinitionWithoutName } from '../support/job-shapes';
import type { HttpResult, RequestOptions } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';

/**
 * Every job the API answers is accepted back unchanged, on both surfaces:
 * over generated definitions, create → GET → PUT of the GET body changes
 * nothing, and POST of a copy of it (renamed) creates the same definition.
 */
describe('jobs round trip (property)', () => {
  let server: TestServer;
  let user: SignedInAccount;
  let apiKey: string;
  let created = 0;

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, EXECUTION_TIMEOUT_MS: '10000', PROG_RATE_LIMIT: '100000' });
    user = await signUpAndLogin(server);
    await setPlan(server, user.userId, 'unlimited');
    const key = await server.http.post('/api/api-keys/generate', { name: 'round-trip' }, { token: user.accessToken });
    apiKey = key.body.api_key;
  });

  afterAll(async () => {
    await server?.close();
  });

  const surfaces = {
    api: { jobs: '/api/jobs', auth: (): RequestOptions => ({ token: user.accessToken }) },
    prog: { jobs: '/prog/jobs', auth: (): RequestOptions => ({ headers: { 'X-API-Key': apiKey, 'X-User-ID': user.userId } }) },
  };

  /** What a PUT may change although the definition did not: the time of the change, and the next run (computed from now). */
  const unchanging = ({ updated_at: _updated, next_run_at: _next, ...rest }: Job) => rest;
  const definitionOf = ({ job_id: _id, name: _name, status: _s, next_run_at: _n, last_run_at: _l, created_at: _c, updated_at: _u, ...rest }: Job) => rest;
  const ok = <T>(res: HttpResult<T>, what: string): T => {
    if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${res.text}`);
    return res.body;
  };

  it.each(Object.keys(surfaces) as Array<keyof typeof surfaces>)('on /%s', async (surface) => {
    const { jobs, auth } = surfaces[surface];
    await fc.assert(
      fc.asyncProperty(jobDefinitionWithoutName, async (definition) => {
        const name = () => `rt-${surface}-${(created += 1)}`;
        const answered = ok<Job>(await server.http.post(jobs, { name: name(), ...definition }, auth()), 'create');
        // The signing secret is answered by the creation alone.
        const { signing_secret: secret, ...job } = answered;
        expect(secret).toMatch(/^cbsig_/);
        const read = ok<Job>(await server.http.get(`${jobs}/${job.job_id}`, auth()), 'get');
        expect(read).toEqual(job);

        const replaced = ok<Job>(await server.http.put(`${jobs}/${job.job_id}`, read, auth()), 'PUT of the GET body');
        expect(unchanging(replaced)).toEqual(unchanging(read));
        expect(ok<Job>(await server.http.get(`${jobs}/${job.job_id}`, auth()), 'get after PUT')).toEqual(replaced);

        // The creation's answer, secret included, is a definition too (the secret is ignored: the copy gets its own).
        const { signing_secret: copySecret, ...copy } = ok<Job>(await server.http.post(jobs, { ...answered, name: name() }, auth()), 'POST of a copy');
        expect(copySecret).toMatch(/^cbsig_/);
        expect(copySecret).not.toBe(secret);
        expect(copy.job_id).not.toBe(read.job_id);
        expect(definitionOf(copy)).toEqual(definitionOf(read));

        for (const id of [job.job_id, copy.job_id]) ok(await server.http.delete(`${jobs}/${id}`, auth()), 'delete');
      }),
      { numRuns: 60 },
    );
  });
});
