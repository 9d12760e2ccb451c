import { JOB_MESSAGES } from '@cronbeam/shared/jobs/job-rules';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(120_000);

const TOO_MANY = 'Send at most 1000 jobs per request; split larger imports into several requests';

describe('bulk job creation (/api/jobs/bulk and /prog/jobs/bulk)', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  let aliceKey: string;

  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const bulk = (who: SignedInAccount, jobs: unknown[]) => server.http.post('/api/jobs/bulk', { jobs }, as(who));
  const names = async (who: SignedInAccount): Promise<string[]> => (await server.http.get('/api/jobs', as(who))).body.map((j: { name: string }) => j.name);

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, EXECUTION_TIMEOUT_MS: '10000' });
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'unlimited');
    await setPlan(server, bob.userId, 'pro');
    const key = await server.http.post('/api/api-keys/generate', { name: 'bulk' }, as(alice));
    expect(key.status).toBe(200);
    aliceKey = key.body.api_key;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('creates every job in one request and answers them in the order sent, as the single create does', async () => {
    const sent = [jobDefinition({ name: 'b-one', method: 'post', body: '{"a":1}' }), jobDefinition({ name: 'b-two', cron_expression: '0 3 * * *', time_zone: 'Europe/Berlin' }), jobDefinition({ name: 'b-three' })];
    const res = await bulk(alice, sent);
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(3);
    expect(res.body.jobs.map((j: { name: string }) => j.name)).toEqual(['b-one', 'b-two', 'b-three']);
    expect(res.body.jobs[0]).toMatchObject({ method: 'POST', body: '{"a":1}', status: 'pending', time_zone: 'UTC' });
    expect(res.body.jobs[1]).toMatchObject({ time_zone: 'Europe/Berlin', cron_expression: '0 3 * * *' });
    // Each answered job is what GET answers for it, and the oldest-first list keeps the order sent.
    // (The creation alone answers each job's own signing secret.)
    expect(new Set(res.body.jobs.map((j: { signing_secret: string }) => j.signing_secret)).size).toBe(res.body.jobs.length);
    for (const { signing_secret: _secret, ...job } of res.body.jobs) expect((await server.http.get(`/api/jobs/${job.job_id}`, as(alice))).body).toEqual(job);
    const listed = await names(alice);
    expect(listed.indexOf('b-one')).toBeLessThan(listed.indexOf('b-two'));
    expect(listed.indexOf('b-two')).toBeLessThan(listed.indexOf('b-three'));
  });

  it('creates 1,000 jobs in one request, on /prog with the API key', async () => {
    const jobs = Array.from({ length: 1000 }, (_, i) => jobDefinition({ name: `prog-bulk-${i}` }));
    const res = await server.http.post('/prog/jobs/bulk', { jobs }, { headers: { 'x-api-key': aliceKey, 'x-user-id': alice.userId } });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(1000);
    expect(res.body.jobs[999].name).toBe('prog-bulk-999');
    const listed = await server.http.get('/prog/jobs', { headers: { authorization: `Bearer ${aliceKey}` } });
    expect(listed.body.filter((j: { name: string }) => j.name.startsWith('prog-bulk-'))).toHaveLength(1000);
  });

  it('refuses more than 1,000 jobs, or none, with a 422 on the list and creates nothing', async () => {
    const before = (await names(alice)).length;
    const over = await bulk(alice, Array.from({ length: 1001 }, (_, i) => jobDefinition({ name: `over-${i}` })));
    expect(over.status).toBe(422);
    expect(over.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'jobs'], msg: TOO_MANY })]);
    const empty = await bulk(alice, []);
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0]).toMatchObject({ loc: ['body', 'jobs'], msg: 'Send at least one job' });
    const notList = await server.http.post('/api/jobs/bulk', { jobs: 'nope' }, as(alice));
    expect(notList.status).toBe(422);
    expect(notList.body.detail[0].loc).toEqual(['body', 'jobs']);
    expect((await names(alice)).length).toBe(before);
  });

  it('names the invalid item by its index and creates none of the others', async () => {
    const res = await bulk(alice, [jobDefinition({ name: 'ok-first' }), jobDefinition({ name: 'ok-second' }), jobDefinition({ name: 'bad-cron', cron_expression: 'nope' })]);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'jobs', 2, 'cron_expression'] })]);
    const badName = await bulk(alice, [jobDefinition({ name: 'has space' })]);
    expect(badName.body.detail).toEqual([{ loc: ['body', 'jobs', 0, 'name'], msg: JOB_MESSAGES.namePattern, type: 'invalid_format' }]);
    // The server's own checks are made per item too (here: a time limit past this server's 10 s).
    const slow = await bulk(alice, [jobDefinition({ name: 'fine-one' }), jobDefinition({ name: 'slow', timeout_seconds: 30 })]);
    expect(slow.status).toBe(422);
    expect(slow.body.detail).toEqual([
      { loc: ['body', 'jobs', 1, 'timeout_seconds'], msg: 'timeout_seconds: this server allows requests of at most 10 seconds (the unlimited plan would allow 7200); 30 asked', type: 'value_error' },
    ]);
    expect(await names(alice)).not.toEqual(expect.arrayContaining(['ok-first']));
    expect(await names(alice)).not.toEqual(expect.arrayContaining(['fine-one']));
  });

  it('refuses a name taken by an existing job or twice in the batch (case-insensitively), naming the item', async () => {
    expect((await bulk(alice, [jobDefinition({ name: 'taken-name' })])).status).toBe(200);
    const taken = await bulk(alice, [jobDefinition({ name: 'fresh-1' }), jobDefinition({ name: 'TAKEN-name' })]);
    expect(taken.status).toBe(422);
    expect(taken.body.detail).toEqual([{ loc: ['body', 'jobs', 1, 'name'], msg: JOB_MESSAGES.nameTaken, type: 'value_error' }]);
    const twice = await bulk(alice, [jobDefinition({ name: 'dup-a' }), jobDefinition({ name: 'other' }), jobDefinition({ name: 'DUP-A' })]);
    expect(twice.status).toBe(422);
    expect(twice.body.detail).toEqual([{ loc: ['body', 'jobs', 2, 'name'], msg: JOB_MESSAGES.nameTaken, type: 'value_error' }]);
    expect(await names(alice)).not.toEqual(expect.arrayContaining(['fresh-1']));
  });

  it('keeps users apart: names are per user, lists and keys see only their owner’s jobs', async () => {
    const mine = await bulk(bob, [jobDefinition({ name: 'b-one' }), jobDefinition({ name: 'bob-only' })]);
    expect(mine.status).toBe(200);
    expect(await names(alice)).not.toContain('bob-only');
    expect(await names(bob)).toEqual(['b-one', 'bob-only']);
    // Alice's key with Bob's id is refused, and creates nothing for either.
    const crossed = await server.http.post('/prog/jobs/bulk', { jobs: [jobDefinition({ name: 'crossed' })] }, { headers: { 'x-api-key': aliceKey, 'x-user-id': bob.userId } });
    expect(crossed.status).toBe(401);
    expect(crossed.body).toEqual({ detail: 'Invalid API key' });
    expect(await names(bob)).toEqual(['b-one', 'bob-only']);
    expect((await server.http.post('/api/jobs/bulk', { jobs: [jobDefinition()] })).status).toBe(401);
  });
});

describe('bulk job creation and the plan’s job limit', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers the single create’s 403 when the batch does not fit, creating none of it, and creates a batch that fits exactly', async () => {
    const user = await signUpAndLogin(server);
    await setPlan(server, user.userId, 'basic');
    const auth = { token: user.accessToken };
    expect((await server.http.post('/api/jobs', jobDefinition(), auth)).status).toBe(200);
    const over = await server.http.post('/api/jobs/bulk', { jobs: Array.from({ length: 10 }, () => jobDefinition()) }, auth);
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ detail: { error: 'Job limit exceeded', plan: 'basic', job_count: 1, max_jobs: 10 } });
    expect((await server.http.get('/api/jobs', auth)).body).toHaveLength(1);
    const fits = await server.http.post('/api/jobs/bulk', { jobs: Array.from({ length: 9 }, () => jobDefinition()) }, auth);
    expect(fits.status).toBe(200);
    const full = await server.http.post('/api/jobs/bulk', { jobs: [jobDefinition()] }, auth);
    expect(full.body).toEqual({ detail: { error: 'Job limit exceeded', plan: 'basic', job_count: 10, max_jobs: 10 } });
  });

  it('does not let concurrent bulk and single creations overshoot the limit', async () => {
    const user = await signUpAndLogin(server);
    await setPlan(server, user.userId, 'basic');
    const auth = { token: user.accessToken };
    const results = await Promise.all([
      server.http.post('/api/jobs/bulk', { jobs: Array.from({ length: 6 }, () => jobDefinition()) }, auth),
      server.http.post('/api/jobs/bulk', { jobs: Array.from({ length: 6 }, () => jobDefinition()) }, auth),
      ...Array.from({ length: 4 }, () => server.http.post('/api/jobs', jobDefinition(), auth)),
    ]);
    // Whatever the order, one batch of six and the four singles fit and the other batch cannot.
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 403]);
    expect((await server.http.get('/api/jobs', auth)).body).toHaveLength(10);
  });
});
