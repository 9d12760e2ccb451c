import type { Delivery, HttpMethod, OverlapPolicy, IdentityToken, ResponseRules, RetryPolicy, RunTrigger } from '@cronbeam/shared/jobs/job-types';
import type { RequestSigning } from '../executor/request-signer.service';
import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';

/** A run this instance holds the lease on and will execute: the run record plus the job's request. */
export interface ClaimedRun {
  runId: string;
  jobId: string;
  accountId: string;
  trigger: RunTrigger;
  scheduledFor: Date;
  attempt: number;
  dueAt: Date;
  /** Sent again after an instance died while it may have been on the wire: the target may see it twice (stored with its result). */
  possibleDuplicate: boolean;
  /** Taken over from a dead instance that may have sent it: the job's `delivery` decides whether it is sent again. */
  uncertain: boolean;
  delivery: Delivery;
  notifyOnFailure: boolean;
  /** Where the run's outcome is POSTed once it is decided; null: nowhere. */
  callbackUrl: string | null;
  url: string;
  method: HttpMethod;
  /** Null when the stored headers cannot be decrypted with this server's keys: the run fails unsent. */
  headers: Record<string, string> | null;
  body: string;
  responseRules: ResponseRules | null;
  timeoutMs: number | null;
  retry: RetryPolicy;
  /** How its request is signed for the target. */
  signing: RequestSigning;
  /** skip: released while an earlier run of its job is in flight, it is recorded as skipped instead of sent. */
  overlap: OverlapPolicy;
}

/** A leased run as `job_runs` returns it. */
export interface LeasedRunRow {
  id: string;
  job_id: string;
  account_id: string;
  trigger: RunTrigger;
  scheduled_for: Date;
  attempt: number;
  due_at: Date;
  possible_duplicate: boolean;
  /** Only from a takeover: the dead owner may have sent it. */
  uncertain?: boolean;
}

/** What executing a job needs from its definition (read from `jobs` by the jobs module). */
export interface JobRequest {
  url: string;
  method: HttpMethod;
  /** Null when the stored headers cannot be decrypted with this server's keys: the run fails unsent. */
  headers: Record<string, string> | null;
  body: string;
  notifyOnFailure: boolean;
  /** Each decided run's outcome is POSTed here; null or absent: no callbacks. */
  callbackUrl?: string | null;
  /** What a run that may have reached its target when its instance died becomes: sent again, or recorded as unknown. */
  delivery: Delivery;
  /** What counts as success (null: any 2xx) and the job's own time limit (null: the server's). */
  responseRules: ResponseRules | null;
  timeoutMs: number | null;
  /** How a failure of a scheduled run is retried; absent: the plan default. */
  retry?: RetryPolicy | null;
  /** The secrets that sign its requests now (empty or absent: unsigned, a job made before signing). */
  signingSecrets?: string[];
  /** Requests carry a Cronbeam-signed JWT; null or absent: none. */
  identityToken?: IdentityToken | null;
  /** What a due run does while the previous run of its job is in flight; absent: allow. */
  overlap?: OverlapPolicy;
}

/** How a job's request is signed: its secrets, and the identity token's audience (the URL unless the job set one). */
export function requestSigning(jobId: string, job: Pick<JobRequest, 'url' | 'signingSecrets' | 'identityToken'>): RequestSigning {
  return { jobId, secrets: job.signingSecrets ?? [], tokenAudience: job.identityToken ? (job.identityToken.audience ?? job.url) : null };
}

export function toClaimedRun(row: LeasedRunRow, job: JobRequest): ClaimedRun {
  return {
    runId: row.id,
    jobId: row.job_id,
    accountId: row.account_id,
    trigger: row.trigger,
    scheduledFor: new Date(row.scheduled_for),
    attempt: Number(row.attempt),
    dueAt: new Date(row.due_at),
    possibleDuplicate: Boolean(row.possible_duplicate),
    uncertain: Boolean(row.uncertain),
    delivery: job.delivery,
    notifyOnFailure: job.notifyOnFailure,
    callbackUrl: job.callbackUrl ?? null,
    url: job.url,
    method: job.method,
    headers: job.headers,
    body: job.body ?? '',
    responseRules: job.responseRules ?? null,
    timeoutMs: job.timeoutMs ?? null,
    retry: job.retry ?? DEFAULT_RETRY_POLICY,
    signing: requestSigning(row.job_id, job),
    overlap: job.overlap ?? 'allow',
  };
}
