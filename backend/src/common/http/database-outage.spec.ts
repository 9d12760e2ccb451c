import { createServer, type AddressInfo, type Server } from 'node:net';
import { Client, DatabaseError, Pool } from 'pg';
import { QueryFailedError } from 'typeorm';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_DETAIL } from './api-error';
import { databaseOutageReason } from './database-outage';
import { toHttpError } from './http-error.filter';

/** What node-postgres raises for an error the server sent (SQLSTATE and severity as the server reports them). */
function serverError(code: string, severity: string, message: string): DatabaseError {
  return Object.assign(new DatabaseError(message, message.length, 'error'), { code, severity });
}

const wrapped = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The error node-postgres itself raises when connecting to `port` fails. */
async function connectFailure(port: number): Promise<unknown> {
  const client = new Client({ host: '127.0.0.1', port, user: 'nobody', database: 'none' });
  return client.connect().then(
    () => new Error('connected unexpectedly'),
    (error: unknown) => error,
  );
}

describe('databaseOutageReason: errors meaning the database cannot be reached', () => {
  it('a refused connection (nothing listens on the database port), raw from the pool', async () => {
    const probe = createServer();
    const port = await listening(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await connectFailure(port);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect' });
    expect(databaseOutageReason(error)).toMatch(/^ECONNREFUSED: /);
  });

  it('a connection the server drops (it stopped, or a proxy in between did)', async () => {
    const dropping = createServer((socket) => socket.destroy());
    try {
      const dropped = await connectFailure(await listening(dropping));
      expect((dropped as Error).message).toBe('Connection terminated unexpectedly');
      expect(databaseOutageReason(dropped)).toBe('Connection terminated unexpectedly');
    } finally {
      dropping.close();
    }
  });

  it("the pool's connect timing out (a host that never answers)", async () => {
    const silent = createServer(() => undefined);
    const pool = new Pool({ host: '127.0.0.1', port: await listening(silent), user: 'nobody', max: 1, connectionTimeoutMillis: 100 });
    try {
      const error = await pool.query('SELECT 1').then(
        () => new Error('answered unexpectedly'),
        (e: unknown) => e,
      );
      expect(databaseOutageReason(error)).toMatch(/^Connection terminated due to connection timeout|^timeout exceeded when trying to connect/);
    } finally {
      await pool.end().catch(() => undefined);
      silent.close();
    }
  });

  it.each([
    ['57P01', 'FATAL', 'terminating connection due to administrator command'],
    ['57P03', 'FATAL', 'the database system is starting up'],
    ['08006', 'ERROR', 'connection failure'],
    ['53300', 'FATAL', 'sorry, too many clients already'],
    ['55000', 'FATAL', 'database "x" is not currently accepting connections'],
    ['3D000', 'FATAL', 'database "x" does not exist'],
  ])('a server error %s (%s), raw or wrapped in TypeORM\'s QueryFailedError', (code, severity, message) => {
    expect(databaseOutageReason(serverError(code, severity, message))).toBe(`${code}: ${message}`);
    expect(databaseOutageReason(wrapped(serverError(code, severity, message)))).toBe(`${code}: ${message}`);
  });

  it('a socket error of a query (TypeORM wrapped it)', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
    expect(databaseOutageReason(wrapped(reset))).toBe('ECONNRESET: read ECONNRESET');
  });
});

describe('databaseOutageReason: every other error stays what it is', () => {
  it.each([
    ['a unique violation', wrapped(serverError('23505', 'ERROR', 'duplicate key value violates unique constraint'))],
    ['a malformed value', wrapped(serverError('22P02', 'ERROR', 'invalid input syntax for type uuid'))],
    ['a lock wait that gave up', wrapped(serverError('55P03', 'ERROR', 'could not obtain lock'))],
    ['a statement timeout', wrapped(serverError('57014', 'ERROR', 'canceling statement due to statement timeout'))],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a failed fetch (its cause is not the database)', new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' }) })],
    ['a socket read error not from a query', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' })],
    ['a non-error', 'boom'],
    ['nothing', undefined],
  ])('%s', (_name, error) => {
    expect(databaseOutageReason(error)).toBeNull();
  });
});

describe('toHttpError for a database outage', () => {
  it('answers 503 with Retry-After and a detail saying to retry, and is not logged as unhandled', () => {
    const answer = toHttpError(wrapped(serverError('57P01', 'FATAL', 'terminating connection due to administrator command')));
    expect(answer).toMatchObject({
      status: 503,
      detail: DATABASE_UNAVAILABLE_DETAIL,
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      unexpected: false,
      databaseOutage: '57P01: terminating connection due to administrator command',
    });
  });

  it('keeps a query that failed for another reason an unexpected 500', () => {
    expect(toHttpError(wrapped(serverError('23505', 'ERROR', 'duplicate key')))).toMatchObject({ status: 500, detail: 'Internal server error', unexpected: true });
  });
});
