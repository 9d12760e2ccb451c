import { IMPORT_MESSAGES } from '@cronbeam/shared/jobs/job-transfer';
import { PLAN_LIMITS } from '@cronbeam/shared/plans';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { createTestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition } from './jobs-fixtures';

jest.setTimeout(120_000);

const FREE_SLOTS = PLAN_LIMITS.free.maxJobs;
const PARALLEL = 20;
/** Creations fired at two instances at once. */
const CROSS_INSTANCE_BURST = 200;

/**
 * The plan's job limit counts jobs and heartbeat monitors together and holds
 * under concurrency: whatever mix of creations a free account fires at once
 * (single, bulk, import, clone, monitors), it ends with exactly its limit.
 */
describe('plan job limit under concurrent creations', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  let monitorNumber = 0;
  const monitor = () => ({ name: `beat-${++monitorNumber}`, period_seconds: 3600 });

  /** Jobs plus monitors the account owns, as the API lists them. */
  async function slotsUsed(who: SignedInAccount): Promise<number> {
    const [jobs, monitors] = await Promise.all([server.http.get('/api/jobs', as(who)), server.http.get('/api/monitors', as(who))]);
    return (jobs.body as unknown[]).length + (monitors.body as unknown[]).length;
  }

  function expectOnlyLimitRefusals(statuses: number[], created: number): void {
    expect(statuses.filter((s) => s !== 201 && s !== 200 && s !== 403)).toEqual([]);
    expect(statuses.filter((s) => s === 201 || s === 200)).toHaveLength(created);
  }

  it(`${PARALLEL} parallel monitor creations leave exactly the plan's ${FREE_SLOTS}`, async () => {
    const user = await signUpAndLogin(server);
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => server.http.post('/api/monitors', monitor(), as(user))));
    expectOnlyLimitRefusals(
      answers.map((a) => a.status),
      FREE_SLOTS,
    );
    const refused = answers.find((a) => a.status === 403)!;
    expect(refused.body).toEqual({ detail: { error: 'Job limit exceeded', plan: 'free', job_count: FREE_SLOTS, max_jobs: FREE_SLOTS } });
    expect(await slotsUsed(user)).toBe(FREE_SLOTS);
  });

  it('parallel jobs, bulk creations and monitors together never pass the limit', async () => {
    const user = await signUpAndLogin(server);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 3 === 0
          ? server.http.post('/api/monitors', monitor(), as(user))
          : i % 3 === 1
            ? server.http.post('/api/jobs', jobDefinition(), as(user))
            : server.http.post('/api/jobs/bulk', { jobs: [jobDefinition()] }, as(user)),
      ),
    );
    expectOnlyLimitRefusals(
      answers.map((a) => a.status),
      FREE_SLOTS,
    );
    expect(await slotsUsed(user)).toBe(FREE_SLOTS);
  });

  it('parallel clones and imports never pass the limit', async () => {
    const user = await signUpAndLogin(server);
    const original = await server.http.post('/api/jobs', jobDefinition(), as(user));
    expect(original.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2 === 0
          ? server.http.post(`/api/jobs/${original.body.job_id}/clone`, { name: `clone-${i}` }, as(user))
          : server.http.post('/api/jobs/import', { format: 'json', content: JSON.stringify([jobDefinition()]) }, as(user)),
      ),
    );
    // An import answers 200 with each item created or refused; a clone answers the created job or the 403.
    expect(answers.filter((a) => ![200, 201, 403].includes(a.status))).toEqual([]);
    const created = answers.reduce((n, a, i) => n + (i % 2 === 0 ? (a.status === 403 ? 0 : 1) : a.body.created), 0);
    expect(created).toBe(FREE_SLOTS - 1);
    expect(await slotsUsed(user)).toBe(FREE_SLOTS);
  });

  it('a monitor takes the last slot from jobs created at the same time (and the other way round)', async () => {
    const user = await signUpAndLogin(server);
    expect((await server.http.post('/api/jobs', jobDefinition(), as(user))).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2 === 0 ? server.http.post('/api/monitors', monitor(), as(user)) : server.http.post('/api/jobs', jobDefinition(), as(user)),
      ),
    );
    expectOnlyLimitRefusals(
      answers.map((a) => a.status),
      FREE_SLOTS - 1,
    );
    expect(await slotsUsed(user)).toBe(FREE_SLOTS);
  });

  it("the import preview counts the account's monitors", async () => {
    const user = await signUpAndLogin(server);
    for (let i = 0; i < FREE_SLOTS - 1; i++) expect((await server.http.post('/api/monitors', monitor(), as(user))).status).toBe(200);
    const content = JSON.stringify([jobDefinition(), jobDefinition()]);
    const preview = await server.http.post('/api/jobs/import', { format: 'json', content, dry_run: true }, as(user));
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ dry_run: true, created: 1, refused: 1 });
    expect(preview.body.items.map((item: { action: string; reason: string | null }) => [item.action, item.reason])).toEqual([
      ['create', null],
      ['refuse', IMPORT_MESSAGES.limit(FREE_SLOTS)],
    ]);
    expect(await slotsUsed(user)).toBe(FREE_SLOTS - 1);
  });

  it(`${CROSS_INSTANCE_BURST} parallel creations of every kind, split between two instances, leave exactly the limit`, async () => {
    // Room for both servers' pools (5 connections each).
    const database = await createTestDatabase(10, { migrated: true });
    const instances = [await startTestServer({}, database), await startTestServer({}, database)];
    try {
      const [first, second] = instances as [TestServer, TestServer];
      const user = await signUpAndLogin(first);
      const original = await first.http.post('/api/jobs', jobDefinition(), as(user));
      expect(original.status).toBe(200);
      const kinds = [
        (on: TestServer) => on.http.post('/api/monitors', monitor(), as(user)),
        (on: TestServer) => on.http.post('/api/jobs', jobDefinition(), as(user)),
        (on: TestServer) => on.http.post('/api/jobs/bulk', { jobs: [jobDefinition()] }, as(user)),
        (on: TestServer, i: number) => on.http.post(`/api/jobs/${original.body.job_id}/clone`, { name: `clone-${i}` }, as(user)),
        (on: TestServer) => on.http.post('/api/jobs/import', { format: 'json', content: JSON.stringify([jobDefinition()]) }, as(user)),
      ];
      const answers = await Promise.all(Array.from({ length: CROSS_INSTANCE_BURST }, (_, i) => kinds[i % kinds.length]!(i % 2 ? second : first, i)));
      expect(answers.filter((a) => ![200, 201, 403].includes(a.status))).toEqual([]);
      const isImport = (i: number) => i % kinds.length === 4;
      const created = answers.reduce((n, a, i) => n + (isImport(i) ? a.body.created : a.status === 403 ? 0 : 1), 0);
      expect(created).toBe(FREE_SLOTS - 1);
      const [jobs, monitors] = await Promise.all([second.http.get('/api/jobs', as(user)), second.http.get('/api/monitors', as(user))]);
      expect((jobs.body as unknown[]).length + (monitors.body as unknown[]).length).toBe(FREE_SLOTS);
    } finally {
      for (const instance of instances) await instance.close();
      await database.drop();
    }
  });
});
