import { isIssueList, type ValidationIssue } from '@cronbeam/sdk';
import type { JobLimitExceeded } from '@cronbeam/shared/jobs/job-types';

/** What went wrong with a call, in the terms an assistant can act on. */
export type CronbeamErrorKind =
  | 'configuration'
  | 'unreachable'
  | 'invalid_credentials'
  | 'not_found'
  | 'validation'
  | 'job_limit'
  | 'rate_limited'
  | 'server_error'
  | 'refused';

/**
 * A failed call to Cronbeam. `message` is written for the model (what happened
 * and what to do next); `detail` is the API's own `detail`, passed through
 * unchanged so nothing it said is lost.
 */
export class CronbeamError extends Error {
  constructor(
    readonly kind: CronbeamErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly detail: unknown = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'CronbeamError';
  }

  /** The error as structured data for the tool result. */
  toJSON(): Record<string, unknown> {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.status !== null ? { status: this.status } : {}),
      ...(this.detail !== null ? { detail: this.detail } : {}),
      ...(this.retryAfterSeconds !== null ? { retry_after_seconds: this.retryAfterSeconds } : {}),
    };
  }
}

/** "name: A job with this name already exists" — the field named as the tool's argument (the API prefixes "body"). */
export function describeIssue(issue: ValidationIssue): string {
  const path = issue.loc.filter((part, i) => !(i === 0 && (part === 'body' || part === 'query'))).join('.');
  return path ? `${path}: ${issue.msg}` : issue.msg;
}

const detailText = (detail: unknown): string => (typeof detail === 'string' ? detail : JSON.stringify(detail));

/** The job or monitor a call is about: a 404 then means it is not (or no longer) the key owner's. */
export interface CallSubject {
  kind: 'job' | 'monitor' | 'maintenance_window';
  id: string;
}

/** Maps an HTTP answer of the /prog API that is not 2xx to a CronbeamError. */
export function errorFromResponse(status: number, detail: unknown, retryAfterSeconds: number | null, subject: CallSubject | null, baseUrl: string): CronbeamError {
  if (status === 401) {
    return new CronbeamError(
      'invalid_credentials',
      `Cronbeam rejected the API key (401 ${detailText(detail)}). Check that CRONBEAM_API_KEY is a current key (keys can be revoked on the profile page) and that CRONBEAM_USER_ID is the user id shown with that key; then restart the MCP server.`,
      status,
      detail,
    );
  }
  if (status === 404 && subject?.kind === 'job') {
    return new CronbeamError('not_found', `Job ${subject.id}: not found (404 ${detailText(detail)}). Call list_jobs to see the jobs this API key can reach.`, status, detail);
  }
  if (status === 404 && subject?.kind === 'monitor') {
    return new CronbeamError('not_found', `Monitor ${subject.id}: not found (404 ${detailText(detail)}). Call list_monitors to see the monitors this API key can reach.`, status, detail);
  }
  if (status === 404 && subject?.kind === 'maintenance_window') {
    return new CronbeamError('not_found', `Maintenance window ${subject.id}: not found (404 ${detailText(detail)}). Call list_maintenance_windows to see the windows this API key can reach.`, status, detail);
  }
  if (status === 404) {
    return new CronbeamError('configuration', `${baseUrl} has no Cronbeam /prog API (404). Check that CRONBEAM_URL is the address of the Cronbeam API.`, status, detail);
  }
  if (status === 422 && isIssueList(detail)) {
    const lines = detail.map((issue) => `- ${describeIssue(issue)}`).join('\n');
    return new CronbeamError('validation', `Cronbeam refused the request (422). Fix these fields and call the tool again:\n${lines}`, status, detail);
  }
  if (status === 403 && detail && typeof detail === 'object' && (detail as JobLimitExceeded).error === 'Job limit exceeded') {
    const limit = detail as JobLimitExceeded;
    return new CronbeamError(
      'job_limit',
      `Job limit exceeded: the ${limit.plan} plan allows ${limit.max_jobs} jobs and this account has ${limit.job_count}. Delete a job or a monitor (they count together) or upgrade the plan on the pricing page, then try again.`,
      status,
      detail,
    );
  }
  if (status === 429) {
    const seconds = retryAfterSeconds;
    return new CronbeamError(
      'rate_limited',
      `Cronbeam's rate limit for this API key was reached (429 ${detailText(detail)}).${seconds !== null ? ` Wait ${seconds} seconds before the next call.` : ' Wait a minute before the next call.'}`,
      status,
      detail,
      seconds,
    );
  }
  if (status >= 500) {
    return new CronbeamError('server_error', `Cronbeam answered ${status} (${detailText(detail)}). The service may be starting or busy; try again in a few seconds.`, status, detail);
  }
  return new CronbeamError('refused', `Cronbeam refused the request (${status} ${detailText(detail)}).`, status, detail);
}
