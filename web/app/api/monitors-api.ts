import type { BulkTagAction, MonitorBulkTagResult } from '@cronbeam/shared/tags/tags';
import type { Monitor, MonitorEvent } from '@cronbeam/shared/notifications/monitors';
import { apiRequest } from './api-client';

/** What the monitor form sends: the schedule is a period or a cron expression (with its time zone). */
export interface MonitorInput {
  name: string;
  period_seconds: number | null;
  cron_expression: string | null;
  time_zone?: string;
  grace_seconds: number;
  alert_after_misses: number;
  channel_ids: string[] | null;
  tags: string[];
}

const path = (id: string) => `/monitors/${encodeURIComponent(id)}`;

/** The heartbeat monitor endpoints, with the session's bearer token. */
export const monitorsApi = {
  list: () => apiRequest<Monitor[]>('GET', '/monitors'),
  create: (input: MonitorInput) => apiRequest<Monitor>('POST', '/monitors', { body: input }),
  update: (id: string, input: MonitorInput) => apiRequest<Monitor>('PUT', path(id), { body: input }),
  pause: (id: string) => apiRequest<Monitor>('POST', `${path(id)}/pause`),
  resume: (id: string) => apiRequest<Monitor>('POST', `${path(id)}/resume`),
  remove: (id: string) => apiRequest<unknown>('DELETE', path(id)),
  /** Pauses, resumes or deletes every monitor of the user that carries the tag. */
  bulkAction: (action: BulkTagAction, tag: string) => apiRequest<MonitorBulkTagResult<Monitor>>('POST', '/monitors/bulk-action', { body: { action, tag } }),
  events: (id: string) => apiRequest<{ events: MonitorEvent[] }>('GET', `${path(id)}/events`),
};
