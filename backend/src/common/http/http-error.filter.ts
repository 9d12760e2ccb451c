import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { SecretUnreadableError } from '../crypto/secret-box';
import { ApiError } from './api-error';
import { databaseOutageReason } from './database-outage';

/** The fields body-parser's errors (http-errors) carry: `type` names the failure, `status` its 4xx. */
interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
  code?: string;
}

export interface HttpErrorResponse {
  status: number;
  detail: unknown;
  headers: Record<string, string>;
  /** True when the failure was not anticipated and must be logged in full. */
  unexpected: boolean;
  /** Set when the database cannot be reached: why, for the outage warning (no stack: the request is not at fault). */
  databaseOutage?: string;
}

/**
 * The one mapping from failures to HTTP. Every error body is `{"detail": ...}`;
 * unexpected errors answer a generic 500 and are logged in full (the logger
 * scrubs secrets) with the request id to find them by. A database that cannot
 * be reached answers 503 with Retry-After on every surface (/api, /prog, the
 * event stream), since any request may be the first to need it.
 */
export function toHttpError(exception: unknown): HttpErrorResponse {
  const outage = databaseOutageReason(exception);
  if (outage !== null) {
    const unavailable = ApiError.databaseUnavailable();
    return { status: unavailable.getStatus(), detail: unavailable.detail, headers: unavailable.headers, unexpected: false, databaseOutage: outage };
  }
  if (exception instanceof ApiError) {
    return { status: exception.getStatus(), detail: exception.detail, headers: exception.headers, unexpected: false };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { status, detail: detailOf(exception.getResponse(), status), headers: {}, unexpected: false };
  }
  const type = (exception as BodyParserError | undefined)?.type;
  if (type === 'entity.too.large') {
    return { status: HttpStatus.PAYLOAD_TOO_LARGE, detail: 'Request body is too large', headers: {}, unexpected: false };
  }
  if (type === 'entity.parse.failed') {
    return {
      status: HttpStatus.UNPROCESSABLE_ENTITY,
      detail: [{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }],
      headers: {},
      unexpected: false,
    };
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return { status: HttpStatus.UNSUPPORTED_MEDIA_TYPE, detail: 'Unsupported request body encoding', headers: {}, unexpected: false };
  }
  const clientError = clientBodyError(exception as BodyParserError | undefined);
  if (clientError) return { ...clientError, headers: {}, unexpected: false };
  // The server's configuration, not the request, is at fault: say so (the full reason, which names the key id, goes to the log).
  if (exception instanceof SecretUnreadableError) {
    return { status: HttpStatus.SERVICE_UNAVAILABLE, detail: 'Stored secrets cannot be decrypted with this server\'s encryption key; the operator must restore the key', headers: {}, unexpected: true };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, detail: 'Internal server error', headers: {}, unexpected: true };
}

/**
 * Failures of reading a request body that are the client's doing: a body that
 * does not decode as its Content-Encoding says, one that ends before its
 * Content-Length, or any other 4xx body-parser marks as safe
 * to show. Everything else stays an unexpected 500.
 */
function clientBodyError(error: BodyParserError | undefined): { status: number; detail: string } | null {
  if (!error || typeof error.status !== 'number' || error.status < 400 || error.status >= 500) return null;
  // zlib names its inflate failures Z_*, its brotli failures ERR__ERROR_*.
  if (typeof error.code === 'string' && /^(Z_|ERR__ERROR_)/.test(error.code)) {
    return { status: HttpStatus.BAD_REQUEST, detail: 'Request body does not decode as its Content-Encoding says' };
  }
  if (error.type === 'request.size.invalid' || error.type === 'request.aborted') {
    return { status: HttpStatus.BAD_REQUEST, detail: 'Request body is shorter than its Content-Length' };
  }
  if (error.expose) return { status: error.status, detail: 'Request body could not be read' };
  return null;
}

function detailOf(body: string | object, status: number): unknown {
  if (typeof body === 'string') return body;
  const b = body as { detail?: unknown; message?: unknown };
  if (b.detail !== undefined) return b.detail;
  if (status === HttpStatus.NOT_FOUND) return 'Not found';
  if (typeof b.message === 'string') return b.message;
  if (Array.isArray(b.message)) return b.message.join('; ');
  return HttpStatus[status] ?? 'Error';
}

/**
 * During an outage every request fails the same way: one warning per interval
 * says so, with how many requests were refused since the last one, instead of
 * a line with a stack per request. Each request's own line still has its 503.
 */
class DatabaseOutageLog {
  static readonly INTERVAL_MS = 10_000;
  private lastWarnedAt = Number.NEGATIVE_INFINITY;
  private refusedSince = 0;

  refused(req: Request, reason: string): void {
    this.refusedSince += 1;
    const now = Date.now();
    if (now - this.lastWarnedAt < DatabaseOutageLog.INTERVAL_MS) return;
    req.log.warn(
      { context: 'HttpError', reason, refused: this.refusedSince, path: req.path, method: req.method },
      'The database cannot be reached: requests are answered 503 until it is back',
    );
    this.lastWarnedAt = now;
    this.refusedSince = 0;
  }
}
const databaseOutageLog = new DatabaseOutageLog();

function send(exception: unknown, req: Request, res: Response): void {
  if (res.headersSent) return;
  const { status, detail, headers, unexpected, databaseOutage } = toHttpError(exception);
  // req.log is the request's logger (request-logger.ts): the line carries the request id.
  if (unexpected) req.log.error({ err: exception, context: 'HttpError', path: req.path, method: req.method }, 'Unhandled error');
  if (databaseOutage !== undefined) databaseOutageLog.refused(req, databaseOutage);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status).json({ detail });
}

/** Errors thrown inside Nest (controllers, guards, pipes). */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    send(exception, http.getRequest<Request>(), http.getResponse<Response>());
  }
}

/** Errors raised by Express middleware that runs before Nest (body parsing). */
export function expressErrorHandler(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(error);
  send(error, req, res);
}
