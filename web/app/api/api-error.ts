import { AUTH_FIELD_MESSAGES, AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { DEPLOYMENT_MESSAGES } from '@cronbeam/shared/deployments/deployment-rules';
import { API_KEY_MESSAGES } from '@cronbeam/shared/jobs/api-key-types';
import type { JobLimitExceeded } from '@cronbeam/shared/jobs/job-types';
import { ALERT_CHANNEL_MESSAGES } from '@cronbeam/shared/notifications/alert-channels';
import { ERROR_TEXT, scrubSecrets } from './error-messages';

/** One field problem of a 422 answer. */
export interface FieldIssue {
  loc: (string | number)[];
  msg: string;
  type?: string;
}

/** The 403 `detail` when the plan's job count is used up (the shape is shared with the API). */
export type JobLimitDetail = JobLimitExceeded;

/**
 * The app's own texts, shown word for word: the scrubbing of secret-sounding
 * words is for what identity providers and other services say, and would turn
 * "Password must be at least 8 characters" into "*** must be at least 8
 * characters". The catalogues of rules whose texts name such a word are listed.
 */
const OWN_TEXTS: ReadonlySet<string> = new Set(
  [ERROR_TEXT, AUTH_MESSAGES, AUTH_FIELD_MESSAGES, API_KEY_MESSAGES, DEPLOYMENT_MESSAGES, ALERT_CHANNEL_MESSAGES].flatMap((catalogue) =>
    (Object.values(catalogue) as unknown[]).filter((text): text is string => typeof text === 'string'),
  ),
);

/** A text as shown: the app's own as it is, anything else scrubbed. */
function shownText(text: string): string {
  return OWN_TEXTS.has(text) ? text : scrubSecrets(text);
}

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

/** The text to show for a server `detail`: the app's own words, or the server's scrubbed, or 'An error occurred'. */
export function messageForDetail(detail: unknown): string {
  if (typeof detail === 'string' && detail.trim()) return shownText(detail);
  if (Array.isArray(detail) && detail.length > 0) {
    return detail.map((issue: FieldIssue) => shownText(String(issue.msg))).join('; ');
  }
  if (detail && typeof detail === 'object' && 'error' in detail) {
    if ((detail as { error: unknown }).error === 'Job limit exceeded') return ERROR_TEXT.jobLimit;
    return messageForDetail((detail as { error: unknown }).error);
  }
  return ERROR_TEXT.generic;
}

/** The shown text of any thrown value: the app's own words, anything else scrubbed. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error && error.message) return shownText(error.message);
  return ERROR_TEXT.generic;
}
