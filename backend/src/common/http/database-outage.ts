import { QueryFailedError } from 'typeorm';

/**
 * SQLSTATEs that say the server cannot serve this session, whatever the query:
 * class 08 (connection exception), 57P01-57P03 (the server is shutting down,
 * crashed, or still starting) and 53300 (no connection slot left).
 */
const CONNECTION_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/**
 * Socket failures of reaching the database host: refused, reset, timed out,
 * no route, or its name not resolving. ENOENT is a Unix-socket path with no
 * server behind it.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ENOENT']);

/** node-postgres's own errors for a connection that could not be made, or broke, or was never handed out by the pool. */
const DRIVER_CONNECTION_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
]);

interface DriverErrorFields {
  code?: unknown;
  severity?: unknown;
  syscall?: unknown;
  message?: unknown;
}

/**
 * The reason, for the log, when `error` means that the database cannot be
 * reached right now; null for every other error (a constraint, a bad query, a
 * bug), which must stay a 500 with its stack.
 *
 * A server error is an outage when its severity is FATAL or PANIC (the server
 * ended the session: shut down, terminated, refused the connection) or its
 * SQLSTATE is a connection one. A socket error counts when TypeORM wrapped it
 * (it came from a query) or it failed to connect or resolve (it came from the
 * pool opening a connection): every other outbound connection (targets, mail,
 * Stripe, Fly) answers its own failures and never leaves them for the error
 * mapping.
 */
export function databaseOutageReason(error: unknown): string | null {
  const wrapped = error instanceof QueryFailedError;
  const cause = (wrapped ? (error.driverError as unknown) : error) as DriverErrorFields | null | undefined;
  if (!cause || typeof cause !== 'object') return null;
  const code = typeof cause.code === 'string' ? cause.code : undefined;
  const message = typeof cause.message === 'string' ? cause.message : '';
  if (code && CONNECTION_SQLSTATE.test(code)) return `${code}: ${message}`;
  if (cause.severity === 'FATAL' || cause.severity === 'PANIC') return `${code ?? cause.severity}: ${message}`;
  if (code && NETWORK_CODES.has(code) && (wrapped || cause.syscall === 'connect' || cause.syscall === 'getaddrinfo')) return `${code}: ${message}`;
  if (DRIVER_CONNECTION_MESSAGES.has(message)) return message;
  return null;
}
