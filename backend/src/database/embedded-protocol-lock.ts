import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';

/** Frontend message types that end an exchange: Sync, a simple Query, Terminate. */
const ENDS_EXCHANGE = new Set(['S', 'Q', 'X'].map((c) => c.charCodeAt(0)));
/** Messages that take the session: the extended protocol's Parse, Bind, Describe, Execute, Close, Flush, and a simple Query. */
const TAKES_SESSION = new Set(['P', 'B', 'D', 'E', 'C', 'H', 'Q'].map((c) => c.charCodeAt(0)));

interface Waiter {
  handlerId: number;
  resume: () => void;
  reject: (error: Error) => void;
}

/**
 * The message queue of the embedded server's connections (the public
 * `queryQueue` option of pglite-socket's PGLiteSocketHandler). PGlite is one
 * session; pglite-socket's own queue passes messages to it one by one from
 * all connections, so the Parse/Bind/Execute of two connections'
 * parameterised queries can interleave and one connection binds the other's
 * unnamed statement ("unnamed prepared statement does not exist"). This queue
 * gives a connection the session from its first message until its Sync (or
 * simple query) completes outside a transaction, so neither an
 * extended-protocol exchange nor a transaction is ever split. It uses only
 * PGlite's public API (execProtocolRawStream, runExclusive, isInTransaction).
 */
export class ProtocolSessionQueue {
  private owner: number | null = null;
  /** When the owner took the session, and its latest message type: what describe() reports when something hangs. */
  private ownedSince = 0;
  private ownerLastMessage = '';
  private waiting: Waiter[] = [];

  constructor(private readonly db: PGlite) {}

  /** Runs one frontend message of connection `handlerId`, streaming PGlite's answer to `onData`; resolves to the bytes answered. */
  async enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    while (this.owner !== null && this.owner !== handlerId) {
      await new Promise<void>((resume, reject) => this.waiting.push({ handlerId, resume, reject }));
    }
    const type = message[0];
    if (TAKES_SESSION.has(type) && this.owner !== handlerId) {
      this.owner = handlerId;
      this.ownedSince = Date.now();
    }
    if (this.owner === handlerId) this.ownerLastMessage = String.fromCharCode(type);
    let answered = 0;
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(message, {
          onRawData: (data) => {
            answered += data.length;
            onData(data);
          },
        }),
      );
      return answered;
    } finally {
      if (this.owner === handlerId && ENDS_EXCHANGE.has(type) && !this.db.isInTransaction()) this.release();
    }
  }

  /** Messages waiting for the session. */
  getQueueLength(): number {
    return this.waiting.length;
  }

  /** Who holds the session, since when, and who waits for it: for a failure message when a caller has waited too long. */
  describe(): string {
    const waiters = [...new Set(this.waiting.map((w) => `#${w.handlerId}`))].join(', ');
    const queue = this.waiting.length ? `${this.waiting.length} message(s) of connection(s) ${waiters} waiting for it` : 'nothing waiting for it';
    if (this.owner === null) return `session free, ${queue}`;
    let inTransaction: string;
    try {
      inTransaction = this.db.isInTransaction() ? 'in a transaction' : 'not in a transaction';
    } catch {
      inTransaction = 'database closed'; // PGlite drops its module on close, and then cannot answer
    }
    const heldFor = ((Date.now() - this.ownedSince) / 1000).toFixed(1);
    return `session held by connection #${this.owner} for ${heldFor} s (${inTransaction}, its last message '${this.ownerLastMessage}'), ${queue}`;
  }

  /** A connection went away: its waiting messages fail, and it gives the session back if it held it. */
  clearQueueForHandler(handlerId: number): void {
    const gone = this.waiting.filter((w) => w.handlerId === handlerId);
    this.waiting = this.waiting.filter((w) => w.handlerId !== handlerId);
    for (const w of gone) w.reject(new Error('Connection closed'));
    if (this.owner === handlerId && !this.db.isInTransaction()) this.release();
  }

  /** A connection that went away inside its transaction: roll it back, then hand the session on. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    // exec takes PGlite's query lock itself (inside runExclusive it would wait for itself).
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.release();
  }

  /** As PGLiteSocketHandler's `queryQueue` option (typed as pglite-socket's own queue class, whose private members no other class can match). */
  asHandlerQueue(): PGLiteSocketHandlerOptions['queryQueue'] {
    return this as unknown as PGLiteSocketHandlerOptions['queryQueue'];
  }

  private release(): void {
    this.owner = null;
    const wake = this.waiting;
    this.waiting = [];
    for (const w of wake) w.resume();
  }
}
