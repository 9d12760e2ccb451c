import type { Job, JobDefinition, JobLogEntry, JobStatus } from '@shared/jobs/job-types';
import { apiRequest } from './api-client';

/** The answer of POST /jobs. */
export interface CreatedJob {
  job_id: string;
  name: string;
  status: JobStatus;
  next_run_at: string | null;
}

/** GET /dashboard. */
export interface DashboardStats {
  total_jobs: number;
  active_jobs: number;
  failed_jobs: number;
  job_count: number;
  max_jobs: number;
  executions_used: number;
  execution_quota: number;
  plan: string;
  n8n_deployments_used: number;
  n8n_deployments_quota: number;
}

/** The outcome of a test run (POST /jobs/test) or a manual run. */
export interface RunOutcome {
  status: string;
  response_code?: number | null;
  duration_ms?: number | null;
  error_message?: string | null;
  response_body?: string | null;
}

const path = (id: string) => `/jobs/${encodeURIComponent(id)}`;

/** The dashboard's job endpoints, all with the session's bearer token. */
export const jobsApi = {
  list: (retry = false) => apiRequest<Job[]>('GET', '/jobs', { retry }),
  get: (id: string) => apiRequest<Job>('GET', path(id)),
  create: (definition: JobDefinition) => apiRequest<CreatedJob>('POST', '/jobs', { body: definition }),
  update: (id: string, definition: JobDefinition) => apiRequest<Job>('PUT', path(id), { body: definition }),
  remove: (id: string) => apiRequest<unknown>('DELETE', path(id)),
  pause: (id: string) => apiRequest<unknown>('POST', `${path(id)}/pause`),
  resume: (id: string) => apiRequest<unknown>('POST', `${path(id)}/resume`),
  runNow: (id: string) => apiRequest<RunOutcome>('POST', `${path(id)}/run`),
  logs: (id: string) => apiRequest<{ logs: JobLogEntry[] }>('GET', `${path(id)}/logs`, { on401: 'report' }),
  dashboard: () => apiRequest<DashboardStats>('GET', '/dashboard', { retry: true }),
};
