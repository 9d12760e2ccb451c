import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MONITOR_MESSAGES, type Monitor, type MonitorEvent } from '@cronbeam/shared/notifications/monitors';
import type { TestServer } from '../../../test/support/test-server';
import { progAs, type ApiUser } from './support/cronbeam-fixture';
import { callTool, resultText } from './support/mcp-harness';
import { twoUsersOverStdio, type TwoUsersOverStdio } from './support/two-users';

jest.setTimeout(120_000);

const data = <T>(result: { structuredContent?: unknown }) => result.structuredContent as T;
/** The JSON block a tool error carries after its message. */
const errorOf = (result: { content?: unknown }) => JSON.parse(resultText(result as never).split('\n\n').slice(1).join('\n\n')).error;

/** The monitor tools over stdio against a real running Cronbeam: what they do is checked through /prog and the ping URL. */
describe('MCP monitor tools against a running Cronbeam', () => {
  let setup: TwoUsersOverStdio;
  let cronbeam: TestServer;
  let alice: ApiUser;
  let client: Client;
  let bobClient: Client;

  beforeAll(async () => {
    setup = await twoUsersOverStdio();
    ({ cronbeam, alice, client, bobClient } = setup);
  });

  afterAll(async () => {
    await setup?.close();
  });

  it('creates a monitor whose ping URL works, finds it by name, lists it and shows its events', async () => {
    const created = await callTool(client, 'create_monitor', { name: 'Nightly Backup', cron_expression: '0  3 * * *', time_zone: 'Europe/Berlin', grace_seconds: 600 });
    expect(created.isError).toBeFalsy();
    const monitor = data<Monitor>(created);
    expect(monitor).toMatchObject({ name: 'Nightly Backup', cron_expression: '0 3 * * *', time_zone: 'Europe/Berlin', grace_seconds: 600, status: 'new' });
    expect((await cronbeam.http.get(`/prog/monitors/${monitor.monitor_id}`, progAs(alice))).body).toEqual(monitor);

    expect((await cronbeam.http.post(`${new URL(monitor.ping_url).pathname}/start`)).status).toBe(200);
    expect((await cronbeam.http.get(new URL(monitor.ping_url).pathname)).status).toBe(200);

    const byName = await callTool(client, 'get_monitor', { monitor: 'nightly backup' });
    expect(data<Monitor>(byName)).toMatchObject({ monitor_id: monitor.monitor_id, status: 'up' });
    const listed = data<{ monitors: Monitor[]; count: number }>(await callTool(client, 'list_monitors', { status: 'up' }));
    expect(listed.monitors.map((m) => m.monitor_id)).toEqual([monitor.monitor_id]);
    expect(listed.count).toBe(1);
    const events = data<{ events: MonitorEvent[]; count: number }>(await callTool(client, 'get_monitor_events', { monitor: monitor.monitor_id }));
    expect(events.events.map((e) => e.kind)).toEqual(['success', 'start']);
    expect(events.events[0].duration_ms).toEqual(expect.any(Number));
  });

  it('keeps the fields it has no input for (alert_after_misses) when it updates others', async () => {
    const created = await cronbeam.http.post('/prog/monitors', { name: 'patient', period_seconds: 600, alert_after_misses: 3 }, progAs(alice));
    expect(created.status).toBe(200);
    const updated = await callTool(client, 'update_monitor', { monitor: 'patient', grace_seconds: 30 });
    expect(data<Monitor>(updated)).toMatchObject({ grace_seconds: 30, alert_after_misses: 3 });
    expect((await cronbeam.http.get(`/prog/monitors/${created.body.monitor_id}`, progAs(alice))).body.alert_after_misses).toBe(3);
    await cronbeam.http.delete(`/prog/monitors/${created.body.monitor_id}`, progAs(alice));
  });

  it('updates only the fields given, pauses, resumes and deletes', async () => {
    const updated = await callTool(client, 'update_monitor', { monitor: 'Nightly Backup', grace_seconds: 120 });
    expect(updated.isError).toBeFalsy();
    expect(data<Monitor>(updated)).toMatchObject({ name: 'Nightly Backup', cron_expression: '0 3 * * *', time_zone: 'Europe/Berlin', grace_seconds: 120 });
    const switched = data<Monitor>(await callTool(client, 'update_monitor', { monitor: 'Nightly Backup', period_seconds: 3600, cron_expression: null, time_zone: 'UTC' }));
    expect(switched).toMatchObject({ period_seconds: 3600, cron_expression: null, grace_seconds: 120 });

    expect(data<Monitor>(await callTool(client, 'pause_monitor', { monitor: switched.monitor_id })).status).toBe('paused');
    expect(data<Monitor>(await callTool(client, 'resume_monitor', { monitor: 'Nightly Backup' })).status).toBe('new');
    const deleted = await callTool(client, 'delete_monitor', { monitor: 'Nightly Backup' });
    expect(data<{ deleted: boolean }>(deleted).deleted).toBe(true);
    expect((await cronbeam.http.get(`/prog/monitors/${switched.monitor_id}`, progAs(alice))).status).toBe(404);
  });

  it('passes the API’s field errors on, naming the field', async () => {
    const result = await callTool(client, 'create_monitor', { name: 'both', period_seconds: 60, cron_expression: '* * * * *' });
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toMatchObject({ kind: 'validation', status: 422 });
    expect(resultText(result)).toContain(`cron_expression: ${MONITOR_MESSAGES.schedule}`);
  });

  it("does not reach another account's monitor, by id or by name", async () => {
    const own = data<Monitor>(await callTool(client, 'create_monitor', { name: 'alice-private', period_seconds: 60 }));
    for (const reference of [own.monitor_id, 'alice-private']) {
      const result = await callTool(bobClient, 'pause_monitor', { monitor: reference });
      expect(result.isError).toBe(true);
      expect(errorOf(result)).toMatchObject({ kind: 'not_found' });
    }
    expect((await cronbeam.http.get(`/prog/monitors/${own.monitor_id}`, progAs(alice))).body.status).toBe('new');
  });

  it("reports the plan's job limit, which monitors share with jobs", async () => {
    // Bob is on the free plan: 2 jobs or monitors.
    for (const name of ['one', 'two']) expect((await callTool(bobClient, 'create_monitor', { name, period_seconds: 60 })).isError).toBeFalsy();
    const over = await callTool(bobClient, 'create_monitor', { name: 'three', period_seconds: 60 });
    expect(over.isError).toBe(true);
    expect(errorOf(over)).toMatchObject({ kind: 'job_limit', status: 403 });
  });
});
