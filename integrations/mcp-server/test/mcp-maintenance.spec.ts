import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MAINTENANCE_MESSAGES, type MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import type { TestServer } from '../../../test/support/test-server';
import { progAs, type ApiUser } from './support/cronbeam-fixture';
import { callTool, resultText } from './support/mcp-harness';
import { twoUsersOverStdio, type TwoUsersOverStdio } from './support/two-users';

jest.setTimeout(120_000);

const data = <T>(result: { structuredContent?: unknown }) => result.structuredContent as T;
/** The JSON block a tool error carries after its message. */
const errorOf = (result: { content?: unknown }) => JSON.parse(resultText(result as never).split('\n\n').slice(1).join('\n\n')).error;

/** The maintenance window tools over stdio against a real running Cronbeam: what they do is checked through /prog. */
describe('MCP maintenance window tools against a running Cronbeam', () => {
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

  it('creates a recurring window for a tag, lists it and deletes it', async () => {
    const created = await callTool(client, 'create_maintenance_window', { name: 'Sunday upgrades', tag: 'Billing', cron_expression: '0 2 * * SUN', duration_minutes: 90, time_zone: 'Europe/Berlin' });
    expect(created.isError).toBeFalsy();
    const window = data<MaintenanceWindow>(created);
    expect(window).toMatchObject({ name: 'Sunday upgrades', tag: 'billing', job_id: null, cron_expression: '0 2 * * SUN', duration_minutes: 90, pause_runs: false });
    expect((await cronbeam.http.get(`/prog/maintenance-windows/${window.window_id}`, progAs(alice))).body).toEqual(window);

    const listed = data<{ windows: MaintenanceWindow[]; count: number }>(await callTool(client, 'list_maintenance_windows', {}));
    expect(listed.windows.map((w) => w.window_id)).toEqual([window.window_id]);
    expect(data<{ windows: MaintenanceWindow[] }>(await callTool(bobClient, 'list_maintenance_windows', {})).windows).toEqual([]);

    // Another account's window is not found; the owner's goes.
    const stranger = await callTool(bobClient, 'delete_maintenance_window', { window_id: window.window_id });
    expect(stranger.isError).toBe(true);
    expect(errorOf(stranger)).toMatchObject({ kind: 'not_found' });
    expect(data<{ deleted: boolean }>(await callTool(client, 'delete_maintenance_window', { window_id: window.window_id })).deleted).toBe(true);
    expect((await cronbeam.http.get(`/prog/maintenance-windows/${window.window_id}`, progAs(alice))).status).toBe(404);
  });

  it('passes the API’s field errors on, naming the field', async () => {
    const result = await callTool(client, 'create_maintenance_window', { name: 'half', cron_expression: '0 2 * * *' });
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toMatchObject({ kind: 'validation', status: 422 });
    expect(resultText(result)).toContain(`duration_minutes: ${MAINTENANCE_MESSAGES.duration}`);
  });
});
