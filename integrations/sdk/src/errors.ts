/** One field problem of a 422 answer: where (the request part, then field names and list indexes) and what. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type?: string;
}

/** A refusal with figures (the 403 of a plan limit): the sentence in `error`, the numbers beside it. */
export interface DetailWithFigures {
  error: string;
  [figure: string]: unknown;
}

/** The API's `detail`: a sentence, the field problems of a 422, or a sentence with figures. */
export type ApiDetail = string | ValidationIssue[] | DetailWithFigures;

/** The field problems of a 422: a list of `{loc, msg}`. */
export function isIssueList(value: unknown): value is ValidationIssue[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && typeof (item as { msg?: unknown }).msg === 'string');
}

export function isDetailWithFigures(value: unknown): value is DetailWithFigures {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { error?: unknown }).error === 'string';
}

/** Reads `detail` from an error body; anything else becomes a sentence naming the status. */
export function detailOf(body: unknown, status: number): ApiDetail {
  const detail = typeof body === 'object' && body !== null && 'detail' in body ? (body as { detail: unknown }).detail : undefined;
  if (typeof detail === 'string' || isIssueList(detail) || isDetailWithFigures(detail)) return detail;
  if (typeof body === 'string' && body.trim() !== '') return `HTTP ${status}: ${body.trim().slice(0, 200)}`;
  return `HTTP ${status}`;
}

/** The detail as one line: field problems read `body.name: Name is required; ...`. */
export function describeDetail(detail: ApiDetail): string {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) {
    const figures = Object.entries(detail).filter(([key]) => key !== 'error');
    return figures.length ? `${detail.error} (${figures.map(([key, value]) => `${key}: ${String(value)}`).join(', ')})` : detail.error;
  }
  return detail.map((issue) => `${issue.loc.filter((part) => part !== 'body').join('.') || 'request'}: ${issue.msg}`).join('; ');
}

/** The API answered with an error status; `detail` is what it said. */
export class CronbeamApiError extends Error {
  override readonly name = 'CronbeamApiError';

  constructor(
    readonly status: number,
    readonly detail: ApiDetail,
    readonly method: string,
    readonly path: string,
    /** Seconds the API asked to wait (429 and 503), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(describeDetail(detail));
  }

  /** The field problems of a 422; empty for other errors. */
  get issues(): ValidationIssue[] {
    return Array.isArray(this.detail) ? this.detail : [];
  }
}

/** The API could not be reached at all (refused, unknown host, timed out): no status, no detail. */
export class CronbeamConnectionError extends Error {
  override readonly name = 'CronbeamConnectionError';

  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    // fetch reports the system's reason (ECONNREFUSED, ENOTFOUND) as the cause of its TypeError.
    const error = cause as { message?: string; cause?: { code?: string } } | undefined;
    const reason = error?.cause?.code ?? error?.message ?? String(cause);
    super(`Cannot reach Cronbeam at ${url} (${reason})`, { cause });
  }
}
