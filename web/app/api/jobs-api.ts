import type { DashboardStats, Job, JobDefinition, JobLogsResponse, SchedulePreview, SchedulePreviewRequest } from '@cronbeam/shared/jobs/job-types';
import type { JobExport, JobImportRequest, JobImportResult } from '@cronbeam/shared/jobs/job-transfer';
import type { BulkTagAction, JobBulkTagResult } from '@cronbeam/shared/tags/tags';
import type { SigningSecretRotation } from '@cronbeam/shared/jobs/request-signing';
import type { CallbackDelivery } from '@cronbeam/shared/jobs/run-callbacks';
import { apiRequest } from './api-client';

/** The fields of POST /jobs' answer the form relies on (the server answers the whole job). */
export type CreatedJob = Pick<Job, 'job_id' | 'name' | 'status' | 'next_run_at' | 'signing_secret'>;

export type { DashboardStats };

/** What a test request sends: the form's request and response rules, before the job has a name or a schedule. */
export type TestRequest = Pick<JobDefinition, 'url' | 'method' | 'headers' | 'body' | 'response_rules' | 'timeout_seconds'>;

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
  clone: (id: string, name?: string) => apiRequest<Job>('POST', `${path(id)}/clone`, { body: name ? { name } : {} }),
  /** Pauses, resumes or deletes every job of the user that carries the tag. */
  bulkAction: (action: BulkTagAction, tag: string) => apiRequest<JobBulkTagResult<Job>>('POST', '/jobs/bulk-action', { body: { action, tag } }),
  exportAll: () => apiRequest<JobExport>('GET', '/jobs/export'),
  importJobs: (request: JobImportRequest) => apiRequest<JobImportResult>('POST', '/jobs/import', { body: request }),
  runNow: (id: string) => apiRequest<RunOutcome>('POST', `${path(id)}/run`),
  /** A warning when this server would save a job to `url` but refuse every run of it (the executor's target policy). */
  checkTarget: (url: string) => apiRequest<{ warning: string | null }>('POST', '/jobs/target-check', { body: { url } }),
  /** Sends the request once and answers its outcome; nothing is stored or counted. */
  test: (request: TestRequest) => apiRequest<RunOutcome>('POST', '/jobs/test', { body: request }),
  /** A new signing secret, answered this once; the one it replaces keeps signing for `overlapSeconds`. */
  rotateSigningSecret: (id: string, overlapSeconds: number) => apiRequest<SigningSecretRotation>('POST', `${path(id)}/signing-secret`, { body: { overlap_seconds: overlapSeconds } }),
  /** A schedule's next runs, executions in 30 days and jitter offset, before it is saved. */
  schedulePreview: (request: SchedulePreviewRequest) => apiRequest<SchedulePreview>('POST', '/jobs/schedule-preview', { body: request }),
  callbackDeliveries: (id: string) => apiRequest<{ deliveries: CallbackDelivery[] }>('GET', `${path(id)}/callback-deliveries`),
  logs: (id: string) => apiRequest<JobLogsResponse>('GET', `${path(id)}/logs`, { on401: 'report' }),
  dashboard: () => apiRequest<DashboardStats>('GET', '/dashboard', { retry: true }),
};
