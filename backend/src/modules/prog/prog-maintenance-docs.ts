import { applyDecorators } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { MAINTENANCE_MESSAGES, type MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import { JsonResponse } from './prog-docs.decorators';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullableDateTime = { type: 'string', format: 'date-time', nullable: true };

export const MAINTENANCE_WINDOW_EXAMPLE: MaintenanceWindow = {
  window_id: '7e1c2d3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b',
  name: 'Sunday database upgrades',
  job_id: null,
  tag: 'billing',
  starts_at: null,
  ends_at: null,
  cron_expression: '0 2 * * SUN',
  duration_minutes: 90,
  time_zone: 'Europe/Berlin',
  pause_runs: false,
  active: false,
  created_at: '2026-11-20T16:40:00.000Z',
};

export const MAINTENANCE_WINDOW_DEFINITION_EXAMPLE = {
  name: 'Sunday database upgrades',
  tag: 'billing',
  cron_expression: '0 2 * * SUN',
  duration_minutes: 90,
  time_zone: 'Europe/Berlin',
};

export const ONE_OFF_WINDOW_DEFINITION_EXAMPLE = {
  name: 'Warehouse migration',
  job_id: '5b0f7a2e-9c1d-4e8a-b3f6-2d4c6e8a0b1c',
  starts_at: '2026-12-01T22:00:00Z',
  ends_at: '2026-12-02T02:00:00Z',
  pause_runs: true,
};

/** The answer's schema, keyed by the interface's fields so a new field does not compile until it is documented here. */
const WINDOW_PROPERTIES: Record<keyof MaintenanceWindow, object> = {
  window_id: { type: 'string', format: 'uuid' },
  name: { type: 'string' },
  job_id: { type: 'string', format: 'uuid', nullable: true, description: 'The one job it covers.' },
  tag: { type: 'string', nullable: true, description: 'Every job carrying this tag, now and later. With job_id null too: every job of the account.' },
  starts_at: { ...nullableDateTime, description: 'One-off windows: open from this instant (inclusive).' },
  ends_at: { ...nullableDateTime, description: 'One-off windows: closed from this instant (exclusive).' },
  cron_expression: { type: 'string', nullable: true, description: 'Recurring windows: each instant it fires on time_zone\'s clocks opens one.' },
  duration_minutes: { type: 'integer', nullable: true, description: 'Recurring windows: how long each stays open.' },
  time_zone: { type: 'string', description: 'IANA zone the cron expression is read in.' },
  pause_runs: { type: 'boolean', description: 'Scheduled runs due inside the window are recorded as skipped (not sent, not counted against the quota).' },
  active: { type: 'boolean', description: 'Whether the window is open at the time of the answer.' },
  created_at: { type: 'string', format: 'date-time' },
};

export function maintenanceSchemas(): Record<string, object> {
  return { MaintenanceWindow: { type: 'object', properties: WINDOW_PROPERTIES, required: Object.keys(WINDOW_PROPERTIES) } };
}

export const maintenanceWindowRef = () => ref('MaintenanceWindow');

/** The `{window_id}` path parameter and its 404. */
export function WindowIdParam() {
  return applyDecorators(
    ApiParam({ name: 'window_id', format: 'uuid', description: 'The window_id returned at creation' }),
    JsonResponse(404, 'No such maintenance window among yours', ref('MessageError'), { detail: MAINTENANCE_MESSAGES.notFound }),
  );
}
