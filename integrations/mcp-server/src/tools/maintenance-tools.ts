import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import type { ProgClient } from '../api/prog-client';
import { guarded, toolResult } from './tool-results';

/** A window as the API answers it (typed against the shared interface, so a renamed field does not compile). */
const windowOutput = z.object({
  window_id: z.string(),
  name: z.string(),
  job_id: z.string().nullable(),
  tag: z.string().nullable(),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  cron_expression: z.string().nullable(),
  duration_minutes: z.number().int().nullable(),
  time_zone: z.string(),
  pause_runs: z.boolean(),
  active: z.boolean(),
  created_at: z.string(),
}) satisfies z.ZodType<MaintenanceWindow>;

const scope = (w: MaintenanceWindow) => (w.job_id ? `job ${w.job_id}` : w.tag ? `jobs tagged ${w.tag}` : 'every job');
const timing = (w: MaintenanceWindow) => (w.cron_expression ? `'${w.cron_expression}' for ${w.duration_minutes} min (${w.time_zone})` : `${w.starts_at} to ${w.ends_at}`);
const windowLine = (w: MaintenanceWindow) => `${w.name} (${w.window_id}): ${scope(w)}, ${timing(w)}${w.pause_runs ? ', runs paused' : ''}${w.active ? ', open now' : ''}`;

/**
 * Maintenance windows: the failures of the jobs a window covers alert no one
 * while it is open (their log lines say which window muted them) and, with
 * pause_runs, their scheduled runs are skipped. Ranges and rules are the
 * API's: a refusal names the field.
 */
export function registerMaintenanceTools(server: McpServer, client: ProgClient): void {
  server.registerTool(
    'list_maintenance_windows',
    {
      title: 'List maintenance windows',
      description: 'Lists the maintenance windows of the account (oldest first), which jobs each covers, when, whether it pauses runs and whether it is open now.',
      inputSchema: {},
      outputSchema: { windows: z.array(windowOutput), count: z.number() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        const windows = await client.listMaintenanceWindows();
        return toolResult(windows.length === 0 ? 'No maintenance windows.' : `${windows.length} window(s):\n${windows.map(windowLine).join('\n')}`, { windows, count: windows.length });
      }),
  );

  server.registerTool(
    'create_maintenance_window',
    {
      title: 'Create a maintenance window',
      description:
        'Mutes the failure alerts of one job (job_id), of the jobs with a tag (tag) or of every job (neither) while the window is open; with pause_runs their scheduled runs are skipped too. ' +
        'One-off: starts_at and ends_at (ISO 8601 with an offset). Recurring: cron_expression (5 fields) and duration_minutes, read in time_zone.',
      inputSchema: z.strictObject({
        name: z.string().describe('Name of the window, e.g. "Sunday database upgrades".'),
        job_id: z.string().optional().describe('The one job it covers (its job_id).'),
        tag: z.string().optional().describe('Every job carrying this tag.'),
        starts_at: z.string().optional().describe('One-off: when it opens, ISO 8601 with an offset.'),
        ends_at: z.string().optional().describe('One-off: when it closes.'),
        cron_expression: z.string().optional().describe('Recurring: a 5-field cron expression at whose instants it opens.'),
        duration_minutes: z.number().int().optional().describe('Recurring: how long each stays open, in minutes.'),
        time_zone: z.string().optional().describe('IANA time zone of cron_expression (default UTC).'),
        pause_runs: z.boolean().optional().describe('Also skip the scheduled runs due inside the window (default false).'),
      }),
      outputSchema: windowOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (definition) =>
      guarded(async () => {
        const created = await client.createMaintenanceWindow(definition);
        return toolResult(`Created ${windowLine(created)}`, created);
      }),
  );

  server.registerTool(
    'delete_maintenance_window',
    {
      title: 'Delete a maintenance window',
      description: 'Deletes a maintenance window (by its window_id from list_maintenance_windows): the jobs it covered alert again from now on.',
      inputSchema: { window_id: z.string().describe('The window_id from list_maintenance_windows.') },
      outputSchema: { deleted: z.boolean(), window_id: z.string(), message: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ window_id }) =>
      guarded(async () => {
        const answer = await client.deleteMaintenanceWindow(window_id);
        return toolResult(`Deleted maintenance window ${window_id}.`, { deleted: true, window_id, message: answer.message });
      }),
  );
}
