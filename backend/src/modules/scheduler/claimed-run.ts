import type { HttpMethod, RunTrigger } from '@shared/jobs/job-types';

/** A run this instance holds the lease on and will execute: the run record plus the job's request. */
export interface ClaimedRun {
  runId: string;
  jobId: string;
  userId: string;
  trigger: RunTrigger;
  scheduledFor: Date;
  attempt: number;
  dueAt: Date;
  notifyOnFailure: boolean;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string;
}

/** The columns every claim query returns, as PostgreSQL names them. */
export interface ClaimedRunRow {
  run_id: string;
  job_id: string;
  user_id: string;
  trigger: RunTrigger;
  scheduled_for: Date;
  attempt: number;
  due_at: Date;
  notify_on_failure: boolean;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string;
}

export function toClaimedRun(row: ClaimedRunRow): ClaimedRun {
  return {
    runId: row.run_id,
    jobId: row.job_id,
    userId: row.user_id,
    trigger: row.trigger,
    scheduledFor: new Date(row.scheduled_for),
    attempt: Number(row.attempt),
    dueAt: new Date(row.due_at),
    notifyOnFailure: row.notify_on_failure,
    url: row.url,
    method: row.method,
    headers: row.headers ?? {},
    body: row.body ?? '',
  };
}
