import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

type Enqueue = (handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) => Promise<number>;

interface QueueManager {
  enqueue: Enqueue;
  clearQueueForHandler(handlerId: number): void;
}

/** Frontend message types that end an exchange: Sync, a simple Query, Terminate. */
const ENDS_EXCHANGE = new Set(['S', 'Q', 'X'].map((c) => c.charCodeAt(0)));
/** Messages that take the session: the extended protocol's Parse, Bind, Describe, Execute, Close, Flush, and a simple Query. */
const TAKES_SESSION = new Set(['P', 'B', 'D', 'E', 'C', 'H', 'Q'].map((c) => c.charCodeAt(0)));

/**
 * pglite-socket queues messages one by one from all connections onto PGlite's
 * single session, so the Parse/Bind/Execute of two connections' parameterised
 * queries can interleave: one connection then binds the other's unnamed
 * statement ("invalid input syntax", "unnamed prepared statement does not
 * exist"). This gives a connection the session from its first message until
 * its Sync (or simple query) completes outside a transaction, so neither an
 * extended-protocol exchange nor a transaction is ever split.
 */
export function serialiseExtendedProtocol(server: PGLiteSocketServer, db: PGlite): void {
  const queue = (server as unknown as { queryQueue: QueueManager }).queryQueue;
  const enqueue = queue.enqueue.bind(queue);
  const clear = queue.clearQueueForHandler.bind(queue);
  let owner: number | null = null;
  let waiting: Array<() => void> = [];
  const release = () => {
    owner = null;
    const wake = waiting;
    waiting = [];
    for (const resume of wake) resume();
  };

  queue.enqueue = async (handlerId, message, onData) => {
    while (owner !== null && owner !== handlerId) await new Promise<void>((resume) => waiting.push(resume));
    const type = message[0];
    if (TAKES_SESSION.has(type)) owner = handlerId;
    try {
      return await enqueue(handlerId, message, onData);
    } finally {
      if (owner === handlerId && ENDS_EXCHANGE.has(type) && !db.isInTransaction()) release();
    }
  };
  queue.clearQueueForHandler = (handlerId) => {
    if (owner === handlerId) release(); // a connection that dropped mid-exchange must not hold the session
    clear(handlerId);
  };
}
