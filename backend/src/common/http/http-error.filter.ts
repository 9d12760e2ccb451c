import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SecretUnreadableError } from '../crypto/secret-box';
import { ApiError } from './api-error';
import { databaseOutageReason } from './database-outage';
import { requestPath } from './route-prefixes';
import { requestLog } from '../logging/request-logger';

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
  // The server's configuration, not the request, is at fault: say so (the full reason, which names the key id, goes to the log).
  if (exception instanceof SecretUnreadableError) {
    return { status: HttpStatus.SERVICE_UNAVAILABLE, detail: 'Stored secrets cannot be decrypted with this server\'s encryption key; the operator must restore the key', headers: {}, unexpected: true };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, detail: 'Internal server error', headers: {}, unexpected: true };
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

  refused(req: FastifyRequest, reason: string): void {
    this.refusedSince += 1;
    const now = Date.now();
    if (now - this.lastWarnedAt < DatabaseOutageLog.INTERVAL_MS) return;
    requestLog(req).warn(
      { context: 'HttpError', reason, refused: this.refusedSince, path: requestPath(req.url), method: req.method },
      'The database cannot be reached: requests are answered 503 until it is back',
    );
    this.lastWarnedAt = now;
    this.refusedSince = 0;
  }
}
const databaseOutageLog = new DatabaseOutageLog();


function send(exception: unknown, req: FastifyRequest, reply: FastifyReply): void {
  if (reply.sent) return;
  const { status, detail, headers, unexpected, databaseOutage } = toHttpError(exception);
  // The request's logger: the line carries the request id.
  if (unexpected) requestLog(req).error({ err: exception, context: 'HttpError', path: requestPath(req.url), method: req.method }, 'Unhandled error');
  if (databaseOutage !== undefined) databaseOutageLog.refused(req, databaseOutage);
  // A handler may have chosen another type (a page, a feed) before it failed: the error is JSON.
  reply.removeHeader('Content-Type');
  reply.headers(headers).code(status).send({ detail });
}

/**
 * Every error: thrown inside Nest (controllers, guards, pipes) and, through
 * Nest's error handler of the Fastify instance, by the hooks and the body
 * parser that run before it.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    send(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}
