import type { PoolClient } from 'pg';
import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';

/**
 * A transaction (or the pool) that a repository function runs its one
 * statement on. Services that change several tables in one transaction open
 * it and hand it to each owner's service, which passes it to its repository.
 */
export type Queryable = Pick<EntityManager, 'query'>;

/**
 * Statements a service's change brings with it in its transaction `tx`,
 * given by the caller (another table's rows, the change's audit entry): they
 * commit with the change, and their failure undoes it.
 */
export type Alongside = (tx: Queryable) => Promise<void>;

/**
 * Runs the statements `work` starts in one transaction on one connection,
 * pipelined (node-postgres's `pipeline` mode): BEGIN, the statements and
 * COMMIT go on the wire at once, and the server runs them back to back. A lock
 * taken by one statement is then held only while the server works, never while
 * this busy process gets round to reading an answer and sending the next
 * statement (docs/adr/0138-one-plan-limit-rule.md). So `work` must start every
 * statement at once, in the order they are to run (each repository call made
 * before any is awaited), and decide nothing in between: a check belongs in a
 * statement that fails. A failed statement aborts the transaction, the COMMIT
 * that follows then rolls back (as PostgreSQL ends an aborted transaction),
 * and its error is thrown once every statement has answered.
 */
export async function pipelinedTransaction<T extends readonly unknown[]>(db: DataSource, work: (tx: Queryable) => { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const runner = db.createQueryRunner();
  const client = (await runner.connect()) as PoolClient & { pipeline: boolean };
  // Only for this transaction: the connection goes back to the pool as it came (every other use awaits each statement).
  client.pipeline = true;
  try {
    // The driver's query() sends the statement at once (no await before it), so the order of calls is the order sent.
    let started = 0;
    let ended = false;
    const query = (sql: string, parameters?: unknown[]) => {
      // A statement started once COMMIT is on its way would run outside the transaction.
      if (ended) return Promise.reject(new Error('pipelinedTransaction: every statement must be started before any is awaited'));
      started++;
      return send(client, sql, parameters);
    };
    const tx: Queryable = { query: query as Queryable['query'] };
    const begun = send(client, 'BEGIN');
    const statements = work(tx);
    // One statement per promise, all started: otherwise the transaction ends without them.
    const inOrder = started === statements.length;
    ended = true;
    const committed = send(client, inOrder ? 'COMMIT' : 'ROLLBACK');
    const settled = await Promise.allSettled([begun, ...statements, committed]);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    if (!inOrder) throw new Error('pipelinedTransaction: every statement must be started before any is awaited');
    return settled.slice(1, -1).map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
  } finally {
    client.pipeline = false;
    await runner.release();
  }
}

/** One statement through the driver, answered as TypeORM answers it (rows; `[rows, affected]` for UPDATE and DELETE), failing as TypeORM fails. */
async function send(client: PoolClient, sql: string, parameters?: unknown[]): Promise<unknown> {
  try {
    const result = await client.query(sql, parameters);
    return result.command === 'UPDATE' || result.command === 'DELETE' ? [result.rows, result.rowCount] : result.rows;
  } catch (error) {
    throw new QueryFailedError(sql, parameters, error as Error);
  }
}
