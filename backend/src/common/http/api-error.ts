import { HttpException, HttpStatus } from '@nestjs/common';

/** One entry of a 422 body: the field's path (`['body', 'url']`), a message and an error type, as the clients read it. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export type ErrorDetail = string | ValidationIssue[] | ({ error: string } & Record<string, unknown>);

export const DATABASE_UNAVAILABLE_DETAIL = 'The service is temporarily unavailable: its database cannot be reached. Please retry shortly.';
/** What a 503 for a database outage asks clients to wait: the retry interval the public API guide advises (1 to 2 seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The only error type services throw on purpose. The response body is always
 * `{"detail": ...}`; HttpErrorFilter turns it (and everything else) into JSON.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly detail: ErrorDetail,
    readonly headers: Record<string, string> = {},
  ) {
    super({ detail }, status);
  }

  static badRequest(detail: ErrorDetail) {
    return new ApiError(HttpStatus.BAD_REQUEST, detail);
  }
  static unauthorized(detail: ErrorDetail = 'Authentication required') {
    return new ApiError(HttpStatus.UNAUTHORIZED, detail);
  }
  static forbidden(detail: ErrorDetail) {
    return new ApiError(HttpStatus.FORBIDDEN, detail);
  }
  static notFound(detail: ErrorDetail = 'Not found') {
    return new ApiError(HttpStatus.NOT_FOUND, detail);
  }
  static conflict(detail: ErrorDetail) {
    return new ApiError(HttpStatus.CONFLICT, detail);
  }
  static tooManyRequests(detail: ErrorDetail, retryAfterSeconds: number) {
    return new ApiError(HttpStatus.TOO_MANY_REQUESTS, detail, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
  /**
   * The database cannot be reached (down, restarting, unreachable): nothing the
   * client did, and worth retrying in a moment, which Retry-After says.
   */
  static databaseUnavailable() {
    return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, DATABASE_UNAVAILABLE_DETAIL, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
  }
  static validation(issues: ValidationIssue[]) {
    return new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, issues);
  }
  /** One invalid field, e.g. ApiError.invalidField(['body', 'name'], 'Name is required'). */
  static invalidField(loc: Array<string | number>, msg: string, type = 'value_error') {
    return ApiError.validation([{ loc, msg, type }]);
  }
}
