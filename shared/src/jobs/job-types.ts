import type { PlanId } from '../plans';

/**
 * Types of the job API, shared by the backend, the web app, the desktop app
 * and the integrations. The OpenAPI document is generated from the same rules.
 */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const JOB_STATUSES = ['pending', 'scheduled', 'success', 'failed', 'paused', 'quota_reached'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Statuses that count as "active" on the dashboard. */
export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = ['pending', 'scheduled'];

export type RunTrigger = 'schedule' | 'retry' | 'manual' | 'recovery';
export type RunState = 'queued' | 'running' | 'done';
export type RunOutcome = 'success' | 'failed' | 'skipped' | 'missed';

/** A job as every API answers it. Times are ISO 8601 strings in UTC. */
export interface Job {
  job_id: string;
  name: string;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string;
  cron_expression: string;
  status: JobStatus;
  notify_on_failure: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What a client sends to create or (in full) replace a job. */
export interface JobDefinition {
  name: string;
  url: string;
  method?: HttpMethod;
  headers?: Record<string, string>;
  body?: string;
  cron_expression: string;
  notify_on_failure?: boolean;
}

/** One execution as the logs endpoints answer it, newest first. */
export interface JobLogEntry {
  run_id: string;
  executed_at: string | null;
  scheduled_for: string;
  attempt: number;
  trigger: RunTrigger;
  status: RunOutcome;
  response_code: number | null;
  duration_ms: number | null;
  error_message: string | null;
  response_body: string | null;
}

/** GET …/jobs/{id}/logs. */
export interface JobLogsResponse {
  logs: JobLogEntry[];
}

/** The 403 `detail` when a plan's job count is used up. */
export type JobLimitExceeded = {
  error: 'Job limit exceeded';
  plan: PlanId;
  job_count: number;
  max_jobs: number;
};

/** GET /api/dashboard: the stat cards (core-app.md section 3). */
export interface DashboardStats {
  total_jobs: number;
  active_jobs: number;
  failed_jobs: number;
  job_count: number;
  max_jobs: number;
  executions_used: number;
  execution_quota: number;
  plan: PlanId;
  n8n_deployments_used: number;
  n8n_deployments_quota: number;
}
