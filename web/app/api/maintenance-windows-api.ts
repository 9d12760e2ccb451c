import type { MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import { apiRequest } from './api-client';

/** What the window form sends: the scope (job_id, tag or neither) and either a one-off span or a recurring one. */
export interface MaintenanceWindowInput {
  name: string;
  job_id: string | null;
  tag: string | null;
  starts_at: string | null;
  ends_at: string | null;
  cron_expression: string | null;
  duration_minutes: number | null;
  time_zone: string;
  pause_runs: boolean;
}

/** The maintenance window endpoints, with the session's bearer token. */
export const maintenanceWindowsApi = {
  list: () => apiRequest<MaintenanceWindow[]>('GET', '/maintenance-windows'),
  create: (input: MaintenanceWindowInput) => apiRequest<MaintenanceWindow>('POST', '/maintenance-windows', { body: input }),
  remove: (id: string) => apiRequest<unknown>('DELETE', `/maintenance-windows/${encodeURIComponent(id)}`),
};
