import { TAG_LIMITS, TAG_MESSAGES } from '@cronbeam/shared/tags/tags';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import type { RequestOptions } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

/**
 * Tags on jobs and monitors, on both APIs: checked and lower-cased, filtered
 * with ?tag=, and bulk actions (pause, resume, delete) that act on, and answer,
 * exactly the caller's items carrying the tag.
 */
describe('tags', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  let aliceKey: string;

  const api = (account: SignedInAccount): RequestOptions => ({ token: account.accessToken });
  const ids = (items: Array<{ job_id: string } | { monitor_id: string }>) => items.map((i) => ('job_id' in i ? i.job_id : i.monitor_id)).sort();

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PROG_RATE_LIMIT: '1000' });
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'unlimited');
    await setPlan(server, bob.userId, 'unlimited');
    aliceKey = (await server.http.post('/api/api-keys/generate', { name: 'tags' }, api(alice))).body.api_key;
  });

  afterAll(async () => {
    await server?.close();
  });

  const createJob = async (account: SignedInAccount, tags: unknown): Promise<Job> => {
    const res = await server.http.post('/api/jobs', jobDefinition({ tags }), api(account));
    expect(res.status).toBe(200);
    return res.body;
  };

  it('stores tags lower-case, each once, in the order given; refuses bad ones naming the field', async () => {
    const job = await createJob(alice, [' Prod ', 'team:ops', 'prod', 'v1.2_x-y']);
    expect(job.tags).toEqual(['prod', 'team:ops', 'v1.2_x-y']);
    expect((await server.http.get(`/api/jobs/${job.job_id}`, api(alice))).body.tags).toEqual(job.tags);
    expect((await server.http.post('/api/jobs', jobDefinition(), api(alice))).body.tags).toEqual([]);

    const refused: Array<[unknown, Array<string | number>, string]> = [
      [['has space'], ['body', 'tags', 0], TAG_MESSAGES.tag],
      [['-leading'], ['body', 'tags', 0], TAG_MESSAGES.tag],
      [['ok', ''], ['body', 'tags', 1], TAG_MESSAGES.tag],
      [['x'.repeat(TAG_LIMITS.maxLength + 1)], ['body', 'tags', 0], TAG_MESSAGES.tag],
      [['ok', 7], ['body', 'tags', 1], TAG_MESSAGES.tag],
      [Array.from({ length: TAG_LIMITS.maxPerItem + 1 }, (_, i) => `t${i}`), ['body', 'tags'], TAG_MESSAGES.tags],
      ['prod', ['body', 'tags'], TAG_MESSAGES.tags],
    ];
    for (const [tags, loc, msg] of refused) {
      const res = await server.http.post('/api/jobs', jobDefinition({ tags }), api(alice));
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc, msg })]);
    }
    const monitor = await server.http.post('/api/monitors', { name: 'bad', period_seconds: 60, tags: ['a b'] }, api(alice));
    expect(monitor.status).toBe(422);
    expect(monitor.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'tags', 0], msg: TAG_MESSAGES.tag })]);
  });

  it('filters job lists by tag and acts on exactly the tagged jobs of the caller (/api)', async () => {
    const tagged = [await createJob(alice, ['batch', 'prod']), await createJob(alice, ['Batch']), await createJob(alice, ['batch'])];
    const untagged = [await createJob(alice, ['batchy']), await createJob(alice, [])];
    const bobs = await createJob(bob, ['batch']);

    const listed = await server.http.get('/api/jobs?tag=BATCH', api(alice));
    expect(listed.status).toBe(200);
    expect(ids(listed.body)).toEqual(ids(tagged));
    expect((await server.http.get('/api/jobs', api(alice))).body.length).toBeGreaterThanOrEqual(tagged.length + untagged.length);

    // One job already paused: it is still answered (it carries the tag), and stays paused.
    await server.http.post(`/api/jobs/${tagged[2]!.job_id}/pause`, {}, api(alice));
    const paused = await server.http.post('/api/jobs/bulk-action', { action: 'pause', tag: 'batch' }, api(alice));
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ action: 'pause', tag: 'batch', count: 3 });
    expect(ids(paused.body.jobs)).toEqual(ids(tagged));
    expect(paused.body.jobs.every((j: Job) => j.status === 'paused' && j.next_run_at === null)).toBe(true);
    for (const job of untagged) expect((await server.http.get(`/api/jobs/${job.job_id}`, api(alice))).body.status).toBe('pending');
    expect((await server.http.get(`/api/jobs/${bobs.job_id}`, api(bob))).body.status).toBe('pending');

    // A job the quota holds stays held on resume; paused ones are scheduled again.
    await sql(server, `UPDATE jobs SET status = 'quota_reached' WHERE id = $1`, [tagged[0]!.job_id]);
    const resumed = await server.http.post('/api/jobs/bulk-action', { action: 'resume', tag: 'batch' }, api(alice));
    expect(resumed.status).toBe(200);
    expect(ids(resumed.body.jobs)).toEqual(ids(tagged));
    const status = Object.fromEntries(resumed.body.jobs.map((j: Job) => [j.job_id, [j.status, j.next_run_at !== null]]));
    expect(status).toEqual({ [tagged[0]!.job_id]: ['quota_reached', false], [tagged[1]!.job_id]: ['scheduled', true], [tagged[2]!.job_id]: ['scheduled', true] });

    const deleted = await server.http.post('/api/jobs/bulk-action', { action: 'delete', tag: 'batch' }, api(alice));
    expect(deleted.status).toBe(200);
    expect(deleted.body.count).toBe(3);
    expect(ids(deleted.body.jobs)).toEqual(ids(tagged));
    for (const job of tagged) expect((await server.http.get(`/api/jobs/${job.job_id}`, api(alice))).status).toBe(404);
    for (const job of untagged) expect((await server.http.get(`/api/jobs/${job.job_id}`, api(alice))).status).toBe(200);
    expect((await server.http.get(`/api/jobs/${bobs.job_id}`, api(bob))).status).toBe(200);
    expect((await server.http.get('/api/jobs?tag=batch', api(alice))).body).toEqual([]);

    const none = await server.http.post('/api/jobs/bulk-action', { action: 'delete', tag: 'batch' }, api(alice));
    expect(none.body).toEqual({ action: 'delete', tag: 'batch', count: 0, jobs: [] });
  });

  it('refuses bad filters and actions with the field named', async () => {
    const cases: Array<[string, string, unknown, Array<string | number>]> = [
      ['get', '/api/jobs?tag=a%20b', undefined, ['query', 'tag']],
      ['get', '/api/jobs?label=x', undefined, ['query']],
      ['get', '/api/monitors?tag=', undefined, ['query', 'tag']],
      ['post', '/api/jobs/bulk-action', { action: 'archive', tag: 'x' }, ['body', 'action']],
      ['post', '/api/jobs/bulk-action', { action: 'pause' }, ['body', 'tag']],
      ['post', '/api/monitors/bulk-action', { action: 'pause', tag: 'x', extra: 1 }, ['body']],
      ['post', '/prog/jobs/bulk-action', { action: 'pause', tag: '!' }, ['body', 'tag']],
    ];
    for (const [method, path, body, loc] of cases) {
      const auth: RequestOptions = path.startsWith('/prog') ? { headers: { 'X-API-Key': aliceKey, 'X-User-ID': alice.userId } } : api(alice);
      const res = method === 'get' ? await server.http.get(path, auth) : await server.http.post(path, body, auth);
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
      expect(res.body.detail[0].loc).toEqual(loc);
    }
  });

  it('does the same on /prog with an API key', async () => {
    const prog: RequestOptions = { headers: { 'X-API-Key': aliceKey, 'X-User-ID': alice.userId } };
    const make = async (tags: string[]) => (await server.http.post('/prog/jobs', jobDefinition({ tags }), prog)).body as Job;
    const tagged = [await make(['nightly']), await make(['nightly', 'x'])];
    const other = await make(['x']);
    expect(ids((await server.http.get('/prog/jobs?tag=nightly', prog)).body)).toEqual(ids(tagged));
    const paused = await server.http.post('/prog/jobs/bulk-action', { action: 'pause', tag: 'nightly' }, prog);
    expect(paused.status).toBe(200);
    expect(ids(paused.body.jobs)).toEqual(ids(tagged));
    expect((await server.http.get(`/prog/jobs/${other.job_id}`, prog)).body.status).toBe('pending');
    // The export carries the tags, so an import elsewhere keeps them.
    const exported = await server.http.get('/prog/jobs/export', prog);
    expect(exported.body.jobs.find((j: Job) => j.name === tagged[1]!.name).tags).toEqual(['nightly', 'x']);
  });

  it('filters monitors by tag and acts on exactly the tagged monitors of the caller, on both APIs', async () => {
    const make = async (account: SignedInAccount, name: string, tags: string[]) => {
      const res = await server.http.post('/api/monitors', { name, period_seconds: 3600, tags }, api(account));
      expect(res.status).toBe(200);
      return res.body as Monitor;
    };
    const tagged = [await make(alice, 'm1', ['edge']), await make(alice, 'm2', ['EDGE', 'db'])];
    const other = await make(alice, 'm3', ['db']);
    const bobs = await make(bob, 'm4', ['edge']);
    expect(tagged[1]!.tags).toEqual(['edge', 'db']);

    expect(ids((await server.http.get('/api/monitors?tag=edge', api(alice))).body)).toEqual(ids(tagged));
    const prog: RequestOptions = { headers: { 'X-API-Key': aliceKey, 'X-User-ID': alice.userId } };
    expect(ids((await server.http.get('/prog/monitors?tag=edge', prog)).body)).toEqual(ids(tagged));

    const paused = await server.http.post('/api/monitors/bulk-action', { action: 'pause', tag: 'edge' }, api(alice));
    expect(paused.status).toBe(200);
    expect(ids(paused.body.monitors)).toEqual(ids(tagged));
    expect(paused.body.monitors.every((m: Monitor) => m.status === 'paused')).toBe(true);
    expect((await server.http.get('/api/monitors', api(alice))).body.find((m: Monitor) => m.monitor_id === other.monitor_id).status).toBe('new');
    expect((await server.http.get('/api/monitors', api(bob))).body[0].status).toBe('new');

    const resumed = await server.http.post('/prog/monitors/bulk-action', { action: 'resume', tag: 'edge' }, prog);
    expect(resumed.status).toBe(200);
    expect(resumed.body.monitors.map((m: Monitor) => m.status)).toEqual(['new', 'new']);

    // A replaced definition keeps what it says about tags: none given, none kept.
    const replaced = await server.http.put(`/api/monitors/${other.monitor_id}`, { name: 'm3', period_seconds: 3600, tags: ['db', 'Edge'] }, api(alice));
    expect(replaced.body.tags).toEqual(['db', 'edge']);

    const deleted = await server.http.post('/api/monitors/bulk-action', { action: 'delete', tag: 'edge' }, api(alice));
    expect(deleted.body.count).toBe(3);
    expect(ids(deleted.body.monitors)).toEqual(ids([...tagged, other]));
    expect((await server.http.get('/api/monitors', api(alice))).body).toEqual([]);
    expect(ids((await server.http.get('/api/monitors', api(bob))).body)).toEqual([bobs.monitor_id]);
  });
});
