import type { IDataObject } from 'n8n-workflow';
import { HttpTarget } from '../fakes/http-target';
import { startTestServer, type TestServer } from '../support/test-server';
import { CronbeamApi } from '../../integrations/n8n-node/credentials/CronbeamApi.credentials';
import { CronbeamTrigger } from '../../integrations/n8n-node/nodes/CronbeamTrigger/CronbeamTrigger.node';
import { keyedAccount, TEST_ADMIN_TOKEN, type KeyedAccount } from './support/cronbeam-fixtures';
import { N8nRuntime } from './support/n8n-runtime';
import { eventually } from '../api/scheduler-fixtures';

jest.setTimeout(60_000);

/**
 * The Cronbeam Trigger's poll() as n8n calls it on its schedule, against the
 * real app. Runs come from "run now" (the scheduler is off), so each test
 * knows exactly which runs exist; static data is kept between polls and
 * round-tripped through JSON where a restart of n8n is simulated.
 */
describe('n8n node Cronbeam Trigger', () => {
  let server: TestServer;
  let target: HttpTarget;
  let pro: KeyedAccount;
  let runtime: N8nRuntime;
  const trigger = new CronbeamTrigger();
  const description = trigger.description;
  /** Answers of the scripted target path, switched by tests. */
  const answers = new Map<string, number>();

  const auth = () => ({ headers: { 'X-API-Key': String(pro.credentials.apiKey), 'X-User-ID': String(pro.credentials.userId) } });

  async function createJob(name: string, answer: number): Promise<string> {
    answers.set(`/${name}`, answer);
    target.on(`/${name}`, (_req, res) => {
      res.writeHead(answers.get(`/${name}`) ?? 200);
      res.end();
    });
    const res = await server.http.post('/prog/jobs', { name, url: `${target.url}/${name}`, cron_expression: '0 0 1 1 *' }, auth());
    expect(res.status).toBe(200);
    return res.body.job_id;
  }

  /** One "run now" through the API; answers the run id after checking its outcome. */
  async function runNow(jobId: string, expected: 'success' | 'failed'): Promise<string> {
    const res = await server.http.post(`/prog/jobs/${jobId}/run`, undefined, auth());
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(expected);
    return res.body.run_id;
  }

  async function poll(parameters: IDataObject, staticData: IDataObject, mode: 'trigger' | 'manual' = 'trigger') {
    const result = await trigger.poll.call(runtime.pollContext(description, parameters, staticData, mode));
    return result ? result[0].map((item) => item.json) : [];
  }

  beforeAll(async () => {
    target = await HttpTarget.start();
    // Every poll makes one call per watched job with the same key: the per-key rate limit must not be what a test meets.
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, ALLOW_PRIVATE_TARGETS: 'true', PROG_RATE_LIMIT: '1000' });
    pro = await keyedAccount(server, 'pro');
    runtime = new N8nRuntime(new CronbeamApi(), pro.credentials);
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('offers the account\'s jobs by name to choose from', async () => {
    const jobId = await createJob('trigger-listed', 200);
    const options = await trigger.methods.loadOptions.getJobs.call(runtime.loadOptionsContext(description));
    expect(options).toContainEqual({ name: 'trigger-listed', value: jobId, description: `0 0 1 1 * → GET ${target.url}/trigger-listed` });
  });

  it('fires each failed run exactly once, across polls and across a restart of n8n', async () => {
    const failing = await createJob('trigger-failing', 500);
    const healthy = await createJob('trigger-healthy', 200);
    const oldFailure = await runNow(failing, 'failed');
    const parameters = { jobs: [failing, healthy] };
    const staticData: IDataObject = {};

    // The first poll only records what exists: activating a workflow does not replay old failures.
    expect(await poll(parameters, staticData)).toEqual([]);

    const first = await runNow(failing, 'failed');
    await runNow(healthy, 'success');
    const fired = await poll(parameters, staticData);
    expect(fired).toEqual([
      expect.objectContaining({ event: 'failed', job_id: failing, job_name: 'trigger-failing', job_url: `${target.url}/trigger-failing`, run_id: first, status: 'failed', response_code: 500, trigger: 'manual' }),
    ]);
    expect(fired[0].run_id).not.toBe(oldFailure);
    expect(await poll(parameters, staticData)).toEqual([]);

    const second = await runNow(failing, 'failed');
    const third = await runNow(failing, 'failed');
    expect((await poll(parameters, staticData)).map((item) => item.run_id)).toEqual([second, third]);

    // n8n saves static data with the workflow and loads it again after a restart.
    const reloaded = JSON.parse(JSON.stringify(staticData)) as IDataObject;
    runtime = new N8nRuntime(new CronbeamApi(), pro.credentials);
    expect(await poll(parameters, reloaded)).toEqual([]);
    const afterRestart = await runNow(failing, 'failed');
    expect((await poll(parameters, reloaded)).map((item) => item.run_id)).toEqual([afterRestart]);
    expect(await poll(parameters, reloaded)).toEqual([]);
  });

  it('fires on recoveries and successes when asked, once each', async () => {
    const jobId = await createJob('trigger-flaky', 500);
    const staticData: IDataObject = {};
    const parameters = { jobs: [jobId], events: ['failed', 'recovered'] };
    expect(await poll(parameters, staticData)).toEqual([]);

    const failed = await runNow(jobId, 'failed');
    answers.set('/trigger-flaky', 200);
    const recovered = await runNow(jobId, 'success');
    const stillFine = await runNow(jobId, 'success');
    expect((await poll(parameters, staticData)).map((item) => [item.event, item.run_id])).toEqual([
      ['failed', failed],
      ['recovered', recovered],
    ]);

    // The remembered outcome carries a failure streak over to the next poll.
    answers.set('/trigger-flaky', 502);
    const failedAgain = await runNow(jobId, 'failed');
    expect((await poll(parameters, staticData)).map((item) => [item.event, item.run_id])).toEqual([['failed', failedAgain]]);
    answers.set('/trigger-flaky', 200);
    const recoveredAgain = await runNow(jobId, 'success');
    expect((await poll(parameters, staticData)).map((item) => [item.event, item.run_id])).toEqual([['recovered', recoveredAgain]]);

    const everySuccess = { jobs: [jobId], events: ['succeeded'] };
    const successes: IDataObject = {};
    expect(await poll(everySuccess, successes)).toEqual([]);
    const plain = await runNow(jobId, 'success');
    expect((await poll(everySuccess, successes)).map((item) => [item.event, item.run_id])).toEqual([['succeeded', plain]]);
    expect(stillFine).not.toBe(plain);
  });

  it('watches every job when none is chosen, and drops a chosen job once it is deleted', async () => {
    const staticData: IDataObject = {};
    expect(await poll({}, staticData)).toEqual([]);
    const newcomer = await createJob('trigger-newcomer', 503);
    const existing = await createJob('trigger-existing', 500);
    // A job first seen after activation has no history to skip: its runs are new.
    const run = await runNow(newcomer, 'failed');
    const fired = await poll({}, staticData);
    expect(fired.map((item) => [item.job_name, item.run_id])).toEqual([['trigger-newcomer', run]]);

    // A job that existed before but is added to the watch list later: its history is recorded, not replayed.
    const narrow: IDataObject = {};
    expect(await poll({ jobs: [newcomer] }, narrow)).toEqual([]);
    await runNow(existing, 'failed');
    const widened = { jobs: [newcomer, existing] };
    expect(await poll(widened, narrow)).toEqual([]);
    const later = await runNow(existing, 'failed');
    expect((await poll(widened, narrow)).map((item) => item.run_id)).toEqual([later]);

    const chosen: IDataObject = {};
    await poll({ jobs: [existing] }, chosen);
    expect((await server.http.delete(`/prog/jobs/${existing}`, auth())).status).toBe(200);
    await expect(poll({ jobs: [existing] }, chosen)).resolves.toEqual([]);
  });

  it('shows the newest matching run as the test event in the editor, without touching saved state', async () => {
    const jobId = await createJob('trigger-manual', 500);
    const newest = await runNow(jobId, 'failed');
    const staticData: IDataObject = {};
    const sample = await poll({ jobs: [jobId] }, staticData, 'manual');
    expect(sample).toEqual([expect.objectContaining({ event: 'failed', run_id: newest, job_name: 'trigger-manual' })]);
    expect(staticData).toEqual({});
  });

  describe('heartbeat monitors', () => {
    async function createMonitor(name: string, periodSeconds: number): Promise<{ id: string; ping: string }> {
      const res = await server.http.post('/prog/monitors', { name, period_seconds: periodSeconds, grace_seconds: 0 }, auth());
      expect(res.status).toBe(200);
      return { id: res.body.monitor_id, ping: new URL(res.body.ping_url).pathname };
    }
    async function ping(path: string): Promise<void> {
      expect((await server.http.post(path)).status).toBe(200);
    }
    const monitorStatus = async (id: string) => (await server.http.get(`/prog/monitors/${id}`, auth())).body.status as string;

    it('offers the account\'s monitors by name with their schedule', async () => {
      const { id } = await createMonitor('trigger-listed-monitor', 600);
      const options = await trigger.methods.loadOptions.getMonitors.call(runtime.loadOptionsContext(description));
      expect(options).toContainEqual({ name: 'trigger-listed-monitor', value: id, description: 'every 600 s' });
    });

    it('fires once when a monitor goes down and once when it recovers, across polls and a restart of n8n', async () => {
      const backup = await createMonitor('trigger-backup', 3600);
      await ping(`${backup.ping}/fail`); // an outage before activation is history, not news
      const parameters = { watch: 'monitors', monitors: [backup.id], monitorEvents: ['down', 'recovered'] };
      const staticData: IDataObject = {};
      expect(await poll(parameters, staticData)).toEqual([]);

      await ping(backup.ping);
      expect((await poll(parameters, staticData)).map((item) => [item.event, item.kind])).toEqual([['recovered', 'success']]);
      await ping(`${backup.ping}/start`);
      await ping(`${backup.ping}/fail`);
      await ping(`${backup.ping}/fail`);
      const down = await poll(parameters, staticData);
      expect(down).toEqual([expect.objectContaining({ event: 'down', kind: 'fail', monitor_id: backup.id, monitor_name: 'trigger-backup', status: 'down' })]);
      expect(await poll(parameters, staticData)).toEqual([]);

      // n8n saves static data with the workflow: after a restart the outage is still known, and only its end fires.
      const reloaded = JSON.parse(JSON.stringify(staticData)) as IDataObject;
      await ping(`${backup.ping}/fail`);
      expect(await poll(parameters, reloaded)).toEqual([]);
      await ping(backup.ping);
      expect((await poll(parameters, reloaded)).map((item) => item.event)).toEqual(['recovered']);

      // Only "down" asked for: a recovery fires nothing.
      const downOnly = { ...parameters, monitorEvents: ['down'] };
      const quiet: IDataObject = {};
      await poll(downOnly, quiet);
      await ping(`${backup.ping}/fail`);
      await ping(backup.ping);
      expect((await poll(downOnly, quiet)).map((item) => item.event)).toEqual(['down']);
    });

    it('fires for a missed ping on every monitor when none is chosen, a monitor created after activation included', async () => {
      const staticData: IDataObject = {};
      const parameters = { watch: 'monitors' };
      await poll(parameters, staticData);
      const late = await createMonitor('trigger-late', 1);
      await ping(late.ping);
      // The service's sweep marks it missed a second or two after its ping was due.
      await eventually(async () => (await monitorStatus(late.id)) === 'down', 15_000, 'the monitor marked down');
      const fired = await poll(parameters, staticData);
      expect(fired).toEqual([expect.objectContaining({ event: 'down', kind: 'missed', monitor_id: late.id, monitor_name: 'trigger-late' })]);
      expect((await server.http.delete(`/prog/monitors/${late.id}`, auth())).status).toBe(200);
      await expect(poll(parameters, staticData)).resolves.toEqual([]);
    });

    it('shows the newest outage as the test event in the editor, without touching saved state', async () => {
      const { id, ping: path } = await createMonitor('trigger-manual-monitor', 3600);
      await ping(`${path}/fail`);
      const staticData: IDataObject = {};
      const sample = await poll({ watch: 'monitors', monitors: [id] }, staticData, 'manual');
      expect(sample).toEqual([expect.objectContaining({ event: 'down', kind: 'fail', monitor_id: id })]);
      expect(staticData).toEqual({});
    });
  });
});
