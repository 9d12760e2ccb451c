import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MONITOR_LIMITS, MONITOR_STATUSES, type Monitor, type MonitorEvent } from '@cronbeam/shared/notifications/monitors';
import { CronbeamError } from '../api/cronbeam-errors';
import type { MonitorInput, ProgClient } from '../api/prog-client';
import { guarded, toolResult } from './tool-results';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const monitorReference = z
  .string()
  .trim()
  .min(1, 'monitor is required: give the monitor id or its name')
  .describe('The monitor: its monitor_id (from list_monitors) or its exact name (ignoring case).');

/**
 * Typed loosely on purpose (ranges are not repeated here): the API checks them
 * with the shared monitor rules and answers 422 naming the field, which the
 * tool passes on. Whole numbers are typed integer, and each nullable field's
 * type carries its own description, so the JSON Schema says "integer or null"
 * with anyOf rather than a list of types, which some clients refuse.
 */
const definitionFields = {
  name: z.string().describe(`Name of the monitor, 1 to ${MONITOR_LIMITS.nameMaxLength} characters.`),
  period_seconds: z
    .number()
    .int()
    .describe('Seconds between pings.')
    .nullable()
    .optional()
    .describe(`Expect a ping every this many seconds (${MONITOR_LIMITS.minPeriodSeconds} to ${MONITOR_LIMITS.maxPeriodSeconds}). Give this or cron_expression, not both.`),
  cron_expression: z
    .string()
    .describe('A 5-field cron expression.')
    .nullable()
    .optional()
    .describe('Expect a ping at each instant of this 5-field cron expression, read in time_zone. Give this or period_seconds, not both.'),
  time_zone: z.string().optional().describe('IANA time zone of cron_expression, e.g. "Europe/Berlin" (default UTC); only with cron_expression.'),
  grace_seconds: z.number().int().optional().describe(`How late a ping may be before the monitor goes down (0 to ${MONITOR_LIMITS.maxGraceSeconds}; default 60).`),
  channel_ids: z
    .array(z.string().describe('An alert channel id.'))
    .describe('Alert channel ids.')
    .nullable()
    .optional()
    .describe('Alert channel ids to alert besides the account email; null (default): every channel that takes all alerts.'),
};

export const monitorOutput = z.object({
  monitor_id: z.string(),
  name: z.string(),
  ping_url: z.string(),
  period_seconds: z.number().nullable(),
  cron_expression: z.string().nullable(),
  time_zone: z.string(),
  grace_seconds: z.number(),
  alert_after_misses: z.number().int(),
  channel_ids: z.array(z.string()).nullable(),
  tags: z.array(z.string()),
  status: z.enum(MONITOR_STATUSES),
  last_ping_at: z.string().nullable(),
  last_duration_ms: z.number().nullable(),
  due_at: z.string().nullable(),
  created_at: z.string(),
}) satisfies z.ZodType<Monitor>;

const eventOutput = z.object({ kind: z.enum(['success', 'fail', 'start', 'missed']), at: z.string(), duration_ms: z.number().nullable() }) satisfies z.ZodType<MonitorEvent>;

const schedule = (m: Monitor) => (m.cron_expression ? `'${m.cron_expression}' (${m.time_zone})` : `every ${m.period_seconds} s`);
const monitorLine = (m: Monitor) => `${m.name} (${m.monitor_id}): ${m.status}, ${schedule(m)} + ${m.grace_seconds} s grace, ping ${m.ping_url}, due ${m.due_at ?? 'none'}`;

/** Finds a monitor by id or by name among the key owner's; a name shared by several is refused with their ids. */
async function findMonitor(client: ProgClient, reference: string): Promise<Monitor> {
  const ref = reference.trim();
  if (UUID.test(ref)) {
    try {
      return await client.getMonitor(ref);
    } catch (error) {
      if (!(error instanceof CronbeamError && error.kind === 'not_found')) throw error;
    }
  }
  const monitors = await client.listMonitors();
  const matches = monitors.filter((m) => m.name.toLowerCase() === ref.toLowerCase());
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new CronbeamError('refused', `Several monitors are named '${ref}': ${matches.map((m) => m.monitor_id).join(', ')}. Give the monitor_id instead.`);
  }
  const known = monitors.length > 0 ? ` Monitors of this account: ${monitors.slice(0, 20).map((m) => `${m.name} (${m.monitor_id})`).join(', ')}.` : ' This account has no monitors yet.';
  throw new CronbeamError('not_found', `No monitor with the id or name '${ref}' belongs to this API key's account.${known}`, 404);
}

const definitionOf = (m: Monitor): MonitorInput => ({
  name: m.name,
  period_seconds: m.period_seconds,
  cron_expression: m.cron_expression,
  time_zone: m.time_zone,
  grace_seconds: m.grace_seconds,
  alert_after_misses: m.alert_after_misses,
  channel_ids: m.channel_ids,
  tags: m.tags,
});

/** Tools for the heartbeat monitors of the /prog API (a job elsewhere pings a URL; a missed ping raises an alert). */
export function registerMonitorTools(server: McpServer, client: ProgClient): void {
  const read = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

  server.registerTool(
    'list_monitors',
    {
      title: 'List monitors',
      description: 'Lists the heartbeat monitors of the account (oldest first): each has a ping URL a job elsewhere calls; optionally only those with one status.',
      inputSchema: {
        status: z.enum(MONITOR_STATUSES).optional().describe('Only monitors with this status (down: a ping was missed or a failure reported).'),
        tag: z.string().optional().describe('Only monitors carrying this tag (ignoring case).'),
      },
      outputSchema: { monitors: z.array(monitorOutput), count: z.number() },
      annotations: read,
    },
    ({ status, tag }) =>
      guarded(async () => {
        const wanted = tag?.trim().toLowerCase();
        const monitors = (await client.listMonitors()).filter((m) => (!status || m.status === status) && (!wanted || m.tags.includes(wanted)));
        const summary = monitors.length === 0 ? 'No monitors match.' : `${monitors.length} monitor(s):\n${monitors.map(monitorLine).join('\n')}`;
        return toolResult(summary, { monitors, count: monitors.length });
      }),
  );

  server.registerTool(
    'get_monitor',
    {
      title: 'Get a monitor',
      description: 'Shows one heartbeat monitor: its ping URL, expected schedule, grace time, status, last ping and next deadline.',
      inputSchema: { monitor: monitorReference },
      outputSchema: monitorOutput.shape,
      annotations: read,
    },
    ({ monitor }) =>
      guarded(async () => {
        const found = await findMonitor(client, monitor);
        return toolResult(monitorLine(found), found);
      }),
  );

  server.registerTool(
    'create_monitor',
    {
      title: 'Create a monitor',
      description:
        "Creates a heartbeat monitor and answers its ping_url: the user's job calls it (GET or POST) when it succeeds, ping_url + '/fail' when it fails, ping_url + '/start' when it starts. Give period_seconds or cron_expression. A ping later than grace_seconds after it was due alerts the owner. Counts toward the plan's job limit.",
      inputSchema: z.strictObject(definitionFields),
      outputSchema: monitorOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (definition) =>
      guarded(async () => {
        const created = await client.createMonitor(definition);
        return toolResult(`Created ${monitorLine(created)}`, created);
      }),
  );

  server.registerTool(
    'update_monitor',
    {
      title: 'Update a monitor',
      description: 'Changes a monitor: give only the fields to change, the others keep their values (to switch between period and cron, give the new one and null for the other). The ping URL stays.',
      inputSchema: z.strictObject({ monitor: monitorReference, ...definitionFields, name: definitionFields.name.optional() }),
      outputSchema: monitorOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ monitor, ...changes }) =>
      guarded(async () => {
        const current = await findMonitor(client, monitor);
        const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
        const updated = await client.replaceMonitor(current.monitor_id, { ...definitionOf(current), ...given });
        return toolResult(`Updated ${monitorLine(updated)}`, updated);
      }),
  );

  server.registerTool(
    'delete_monitor',
    {
      title: 'Delete a monitor',
      description: 'Deletes a monitor and its events permanently; its ping URL stops working. Confirm with the user first; pause_monitor keeps it instead.',
      inputSchema: { monitor: monitorReference },
      outputSchema: { deleted: z.boolean(), monitor_id: z.string(), name: z.string(), message: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ monitor }) =>
      guarded(async () => {
        const found = await findMonitor(client, monitor);
        const answer = await client.deleteMonitor(found.monitor_id);
        return toolResult(`Deleted ${found.name} (${found.monitor_id}).`, { deleted: true, monitor_id: found.monitor_id, name: found.name, message: answer.message });
      }),
  );

  server.registerTool(
    'pause_monitor',
    {
      title: 'Pause a monitor',
      description: 'Stops alerts for a monitor (pings are still recorded), e.g. during maintenance. resume_monitor turns them back on.',
      inputSchema: { monitor: monitorReference },
      outputSchema: monitorOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ monitor }) =>
      guarded(async () => {
        const paused = await client.pauseMonitor((await findMonitor(client, monitor)).monitor_id);
        return toolResult(`Paused ${monitorLine(paused)}`, paused);
      }),
  );

  server.registerTool(
    'resume_monitor',
    {
      title: 'Resume a monitor',
      description: 'Turns a paused monitor back on; it waits for the next ping as a new monitor does.',
      inputSchema: { monitor: monitorReference },
      outputSchema: monitorOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ monitor }) =>
      guarded(async () => {
        const resumed = await client.resumeMonitor((await findMonitor(client, monitor)).monitor_id);
        return toolResult(`Resumed ${monitorLine(resumed)}`, resumed);
      }),
  );

  server.registerTool(
    'get_monitor_events',
    {
      title: 'Get monitor events',
      description: `The latest events of a monitor (at most ${MONITOR_LIMITS.recentEvents}), newest first: success, fail and start pings, and missed pings; a success after a start carries the run time.`,
      inputSchema: { monitor: monitorReference },
      outputSchema: { monitor_id: z.string(), name: z.string(), events: z.array(eventOutput), count: z.number() },
      annotations: read,
    },
    ({ monitor }) =>
      guarded(async () => {
        const found = await findMonitor(client, monitor);
        const events = await client.monitorEvents(found.monitor_id);
        const lines = events.map((e) => `${e.at} ${e.kind}${e.duration_ms !== null ? ` (${e.duration_ms} ms)` : ''}`);
        const summary = events.length === 0 ? `No events for ${found.name} yet.` : `${events.length} event(s) of ${found.name}:\n${lines.join('\n')}`;
        return toolResult(summary, { monitor_id: found.monitor_id, name: found.name, events, count: events.length });
      }),
  );
}
