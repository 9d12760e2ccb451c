import type { JobLimitExceeded } from '@shared/jobs/job-types';
import { ERROR_TEXT, scrubSecrets } from './error-messages';

/** One field problem of a 422 answer. */
export interface FieldIssue {
  loc: (string | number)[];
  msg: string;
  type?: string;
}

/** The 403 `detail` when the plan's job count is used up (the shape is shared with the API). */
export type JobLimitDetail = JobLimitExceeded;

const CATALOGUE: ReadonlySet<string> = new Set(Object.values(ERROR_TEXT));

/**
 * A failed API call: the HTTP status (0 when the server was not reached) and
 * the server's `detail`, with the text to show already chosen and scrubbed.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(messageForDetail(detail));
    this.name = 'ApiRequestError';
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  get fieldIssues(): FieldIssue[] {
    return this.status === 422 && Array.isArray(this.detail) ? (this.detail as FieldIssue[]) : [];
  }

  get jobLimit(): JobLimitDetail | null {
    const detail = this.detail as Partial<JobLimitDetail> | null;
    return this.status === 403 && detail && typeof detail === 'object' && detail.error === 'Job limit exceeded'
      ? (detail as JobLimitDetail)
      : null;
  }
}

/** The text to show for a server `detail`: the catalogue's words, or the server's scrubbed, or 'An error occurred'. */
export function messageForDetail(detail: unknown): string {
  if (typeof detail === 'string' && detail.trim()) return CATALOGUE.has(detail) ? detail : scrubSecrets(detail);
  if (Array.isArray(detail) && detail.length > 0) {
    return scrubSecrets(detail.map((issue: FieldIssue) => issue.msg).join('; '));
  }
  if (detail && typeof detail === 'object' && 'error' in detail) {
    if ((detail as { error: unknown }).error === 'Job limit exceeded') return ERROR_TEXT.jobLimit;
    return messageForDetail((detail as { error: unknown }).error);
  }
  return ERROR_TEXT.generic;
}

/** The shown text of any thrown value, scrubbed. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error && error.message) return scrubSecrets(error.message);
  return ERROR_TEXT.generic;
}
