import { nextRun } from '@cronbeam/shared/cron/cron-schedule';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

const ZONE_MESSAGE = 'Time zone must be an IANA time zone name such as Europe/Berlin or UTC';

describe('time zone per job (/api and /prog)', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let apiKey: string;

  const as = { token: '' };

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    alice = await signUpAndLogin(server);
    as.token = alice.accessToken;
    await setPlan(server, alice.userId, 'pro');
    const key = await server.http.post('/api/api-keys/generate', { name: 'tz' }, as);
    expect(key.status).toBeLessThan(300);
    apiKey = key.body.api_key;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('defaults to UTC, and a job without a zone keeps the UTC next run', async () => {
    const res = await server.http.post('/api/jobs', jobDefinition({ cron_expression: '0 9 * * *' }), as);
    expect(res.status).toBe(200);
    expect(res.body.time_zone).toBe('UTC');
    expect(new Date(res.body.next_run_at).getUTCHours()).toBe(9);
  });

  it('computes next_run_at on the clocks of the job’s zone and stores the zone', async () => {
    const before = new Date();
    const res = await server.http.post('/api/jobs', jobDefinition({ cron_expression: '30 2 * * *', time_zone: 'America/New_York' }), as);
    const after = new Date();
    expect(res.status).toBe(200);
    expect(res.body.time_zone).toBe('America/New_York');
    const expected = [before, after].map((at) => nextRun('30 2 * * *', at, 'America/New_York')!.toISOString());
    expect(expected).toContain(res.body.next_run_at);
    // 02:30 in New York is 06:30 or 07:30 UTC (summer or winter), never 02:30 UTC.
    expect([6, 7]).toContain(new Date(res.body.next_run_at).getUTCHours());
    const [row] = await sql<{ time_zone: string }>(server, 'SELECT time_zone FROM jobs WHERE id = $1', [res.body.job_id]);
    expect(row.time_zone).toBe('America/New_York');
  });

  it('recomputes the next run when PUT changes the zone and when a paused job resumes', async () => {
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'zone-edit', cron_expression: '0 12 * * *', time_zone: 'Asia/Tokyo' }), as)).body;
    expect(new Date(job.next_run_at).getUTCHours()).toBe(3);
    const put = await server.http.put(`/api/jobs/${job.job_id}`, { name: 'zone-edit', url: job.url, cron_expression: '0 12 * * *', time_zone: 'Asia/Kolkata' }, as);
    expect(put.status).toBe(200);
    expect(put.body.time_zone).toBe('Asia/Kolkata');
    expect(new Date(put.body.next_run_at).toISOString()).toMatch(/T06:30:00/);
    await server.http.post(`/api/jobs/${job.job_id}/pause`, undefined, as);
    const resumed = await server.http.post(`/api/jobs/${job.job_id}/resume`, undefined, as);
    expect(resumed.body.next_run_at).toMatch(/T06:30:00/);
  });

  it.each([['Mars/Olympus'], ['europe/berlin'], ['+02:00'], [42], ['']])('refuses the zone %p with a 422 naming time_zone', async (zone) => {
    const res = await server.http.post('/api/jobs', jobDefinition({ time_zone: zone }), as);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'time_zone'], msg: ZONE_MESSAGE })]);
  });

  it('takes and answers the zone on /prog too', async () => {
    const auth = { token: apiKey };
    const created = await server.http.post('/prog/jobs', jobDefinition({ cron_expression: '0 9 * * 1-5', time_zone: 'Europe/Berlin' }), auth);
    expect(created.status).toBe(200);
    expect(created.body.time_zone).toBe('Europe/Berlin');
    expect([7, 8]).toContain(new Date(created.body.next_run_at).getUTCHours());
    const bad = await server.http.post('/prog/jobs', jobDefinition({ time_zone: 'Nowhere/Land' }), auth);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain(ZONE_MESSAGE);
  });
});
