import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam, ApiResponse } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DEFAULT_TIME_ZONE } from '@cronbeam/shared/cron/time-zone';
import { MONITOR_LIMITS, MONITOR_MESSAGES, MONITOR_STATUSES, monitorSchema, type Monitor, type MonitorEvent } from '@cronbeam/shared/notifications/monitors';
import { TAGS_SCHEMA } from '@cronbeam/shared/jobs/openapi-schemas';
import { requestSchema } from './openapi-zod';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, example: unknown) => ({ 'application/json': { schema, example } });

export const MONITOR_DEFINITION_EXAMPLE = { name: 'nightly-backup', cron_expression: '0 3 * * *', time_zone: 'Europe/Berlin', grace_seconds: 600 };

export const MONITOR_EXAMPLE: Monitor = {
  monitor_id: '5b0f7a2e-9c1d-4e8a-b3f6-2d4c6e8a0b1c',
  name: 'nightly-backup',
  ping_url: 'https://cronbeam.com/ping/Q2xvY2tzIHRpY2sgYW5kIGJlYXQ',
  period_seconds: null,
  cron_expression: '0 3 * * *',
  time_zone: 'Europe/Berlin',
  grace_seconds: 600,
  alert_after_misses: 1,
  channel_ids: null,
  tags: ['backups'],
  status: 'up',
  last_ping_at: '2026-11-23T02:00:41.000Z',
  last_duration_ms: 38_120,
  due_at: '2026-11-24T02:10:00.000Z',
  created_at: '2026-11-01T09:12:00.000Z',
};

const EVENTS_EXAMPLE: { events: MonitorEvent[] } = {
  events: [
    { kind: 'success', at: '2026-11-23T02:00:41.000Z', duration_ms: 38_120 },
    { kind: 'start', at: '2026-11-23T02:00:03.000Z', duration_ms: null },
  ],
};

const timestamp = (description: string) => ({ type: 'string', format: 'date-time', nullable: true, description });

/** The Monitor answer; keyed by the interface's fields so a new field does not compile until it is documented here. */
const MONITOR_PROPERTIES: Record<keyof Monitor, { type: string } & Record<string, unknown>> = {
  monitor_id: { type: 'string', format: 'uuid' },
  name: { type: 'string', maxLength: MONITOR_LIMITS.nameMaxLength },
  ping_url: { type: 'string', format: 'uri', description: 'GET or POST it when the job succeeds; append /fail on failure, /start when a run begins.' },
  period_seconds: { type: 'integer', nullable: true, description: 'A ping is expected every this many seconds (or null with cron_expression).' },
  cron_expression: { type: 'string', nullable: true, description: 'A ping is expected at each instant of this 5-field expression, read in time_zone.' },
  time_zone: { type: 'string', description: 'IANA time zone of cron_expression.' },
  grace_seconds: { type: 'integer', description: 'How late a ping may be before the deadline counts as missed.' },
  alert_after_misses: { type: 'integer', description: 'Missed deadlines in a row that take the monitor down and alert (and it alerts again on the ping that brings it up); 1: the first. A /fail ping takes it down at once.' },
  channel_ids: { type: 'array', items: { type: 'string' }, nullable: true, description: 'Alert channels besides the account email; null: every channel that takes all alerts.' },
  tags: { ...TAGS_SCHEMA, type: 'array' },
  status: { type: 'string', enum: MONITOR_STATUSES },
  last_ping_at: timestamp('The last success ping.'),
  last_duration_ms: { type: 'integer', nullable: true, description: 'Run time: from a /start ping to the success ping after it.' },
  due_at: timestamp('When the monitor goes down if no ping comes; null before the first ping, while down and while paused.'),
  created_at: { type: 'string', format: 'date-time' },
};

const MONITOR_EVENT_PROPERTIES: Record<keyof MonitorEvent, object> = {
  kind: { type: 'string', enum: ['success', 'fail', 'start', 'missed'] },
  at: { type: 'string', format: 'date-time' },
  duration_ms: { type: 'integer', nullable: true },
};

/** The schemas the monitor operations refer to; the definition comes from the same zod rules the server validates with. */
export function monitorSchemas(): Record<string, object> {
  const definition = requestSchema(monitorSchema) as { properties: Record<string, object> };
  // Rules come from zod; the type and words of fields it checks by hand (cron, time zone) come from the answer's description.
  for (const [field, rules] of Object.entries(definition.properties)) {
    definition.properties[field] = { ...MONITOR_PROPERTIES[field as keyof Monitor], ...rules };
  }
  definition.properties.time_zone = { ...definition.properties.time_zone, default: DEFAULT_TIME_ZONE, description: 'IANA time zone of cron_expression; only with cron_expression.' };
  // The rule zod checks by hand: exactly one of the two schedules (the other absent or null).
  const scheduledBy = (field: 'period_seconds' | 'cron_expression') => ({
    type: 'object',
    required: [field],
    properties: { [field]: { type: MONITOR_PROPERTIES[field].type, nullable: false } },
  });
  return {
    MonitorDefinition: {
      ...definition,
      description: 'Exactly one of period_seconds and cron_expression: a ping every N seconds, or at each instant of a cron expression in time_zone.',
      oneOf: [scheduledBy('period_seconds'), scheduledBy('cron_expression')],
    },
    Monitor: { type: 'object', properties: MONITOR_PROPERTIES, required: Object.keys(MONITOR_PROPERTIES) },
    MonitorEvents: {
      type: 'object',
      properties: { events: { type: 'array', items: { type: 'object', properties: MONITOR_EVENT_PROPERTIES, required: Object.keys(MONITOR_EVENT_PROPERTIES) } } },
      required: ['events'],
    },
  };
}

/** The `{monitor_id}` path parameter and its 404. */
export function MonitorIdParam() {
  return applyDecorators(
    ApiParam({ name: 'monitor_id', format: 'uuid', description: 'The monitor_id returned at creation' }),
    ApiResponse({ status: 404, description: 'No such monitor among yours', content: json(ref('MessageError'), { detail: MONITOR_MESSAGES.notFound }) }),
  );
}

/** A monitor definition body and its 422. */
export function MonitorDefinitionBody() {
  return applyDecorators(
    ApiBody({ schema: ref('MonitorDefinition'), examples: { cron: { summary: 'A nightly job, 10 minutes grace', value: MONITOR_DEFINITION_EXAMPLE } } }),
    ApiResponse({
      status: 422,
      description: 'A field is invalid; each entry names the field and the reason',
      content: json(ref('ValidationError'), { detail: [{ loc: ['body', 'period_seconds'], msg: MONITOR_MESSAGES.schedule, type: 'custom' }] }),
    }),
  );
}

export const monitorRef = () => ref('Monitor');
export const MONITOR_EVENTS = { schema: ref('MonitorEvents'), example: EVENTS_EXAMPLE };

const PING_KINDS = [
  { suffix: '', summary: 'Ping a monitor: the job succeeded', description: 'Marks the monitor up and sets its next deadline; after a /start ping, records the run time.' },
  { suffix: '/fail', summary: 'Ping a monitor: the job failed', description: 'Marks the monitor down at once (one alert per failure episode).' },
  { suffix: '/start', summary: 'Ping a monitor: a run started', description: 'Records the start so the next success ping measures the run time; the status does not change.' },
];

/**
 * The ping URLs (served by the monitors module, outside /prog): public, no
 * key, GET or POST alike. The token in the URL is the only credential.
 */
function pingPaths(): OpenAPIObject['paths'] {
  const tooMany = {
    description: 'Too many pings for this monitor, or for unknown monitors from this address; wait Retry-After seconds',
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
    content: json(ref('MessageError'), { detail: 'Too many pings for this monitor; slow down' }),
  };
  const paths: OpenAPIObject['paths'] = {};
  for (const kind of PING_KINDS) {
    const operation = (method: string) => ({
      operationId: `ping${kind.suffix.replace('/', '_')}_${method}`,
      summary: `${kind.summary} (${method.toUpperCase()})`,
      description: `${kind.description} No API key: the token in the URL identifies the monitor. GET and POST do the same; a body is ignored.`,
      tags: ['monitors'],
      security: [],
      parameters: [{ name: 'token', in: 'path' as const, required: true, description: 'The last part of the monitor’s ping_url', schema: { type: 'string' as const } }],
      responses: {
        '200': { description: 'The ping was recorded', content: json({ type: 'object', properties: { message: { type: 'string' } } }, { message: 'OK' }) },
        '404': { description: 'No monitor has this ping URL', content: json(ref('MessageError'), { detail: MONITOR_MESSAGES.unknownPing }) },
        '429': tooMany,
      },
    });
    paths[`/ping/{token}${kind.suffix}`] = { get: operation('get'), post: operation('post') };
  }
  return paths;
}

/** Adds the public ping operations to the /prog document. */
export function addPingDocs(document: OpenAPIObject): void {
  document.paths = { ...document.paths, ...pingPaths() };
}
