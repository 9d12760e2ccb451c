import * as fs from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';
import { ProtocolSessionQueue } from './embedded-protocol-lock';

/**
 * An in-process PostgreSQL (PGlite, PostgreSQL compiled to WebAssembly) behind
 * a loopback socket, so the application talks to it with the same `pg`
 * driver, SQL and migrations it uses against a real server.
 *
 * PGlite is a single session: every pooled connection is multiplexed onto it
 * through one ProtocolSessionQueue, and a transaction holds the session until
 * it ends. The socket server is ours (node:net); each connection is
 * pglite-socket's public PGLiteSocketHandler, given our queue, so nothing
 * depends on that package's private fields. maxConnections must be at least
 * the pool size.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: Server,
    private readonly handlers: Set<PGLiteSocketHandler>,
    private readonly queue: ProtocolSessionQueue,
    readonly url: string,
  ) {}

  /**
   * dataDir persists the cluster on disk; `memory://` keeps it in memory (tests).
   * `from`, a data directory dumped by emptyCluster() or dump(), is loaded
   * instead of running initdb, which is most of a start's time (only into a
   * new cluster).
   */
  static async start(dataDir: string, maxConnections: number, from?: Blob): Promise<EmbeddedPostgres> {
    assertSocketApi(PGLiteSocketHandler);
    if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create(dataDir, from ? { loadDataDir: from } : {});
    const queue = new ProtocolSessionQueue(db);
    const queryQueue = queue.asHandlerQueue();
    const handlers = new Set<PGLiteSocketHandler>();
    const server = createServer((socket) => {
      const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true });
      handlers.add(handler);
      const forget = () => handlers.delete(handler);
      handler.addEventListener('close', forget);
      handler.addEventListener('error', forget);
      handler.attach(socket).catch(() => {
        forget();
        socket.destroy();
      });
    });
    server.maxConnections = maxConnections;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new EmbeddedPostgres(db, server, handlers, queue, `postgres://postgres@127.0.0.1:${port}/postgres`);
  }

  /**
   * The data directory of a new, empty cluster (what initdb makes, before any
   * migration), gzipped, for start()'s `from`: it depends only on the PGlite
   * build, so one dump can start any number of clusters.
   */
  static async emptyCluster(): Promise<Blob> {
    const db = await PGlite.create('memory://');
    try {
      return await db.dumpDataDir('gzip');
    } finally {
      await db.close();
    }
  }

  /**
   * This cluster's data directory, gzipped, for another start()'s `from`.
   * Only with no client connected: the checkpoint runs outside the
   * connections' queue, and the dump holds only what is written by then.
   */
  async dump(): Promise<Blob> {
    await this.db.exec('CHECKPOINT');
    return this.db.dumpDataDir('gzip');
  }

  /** Open connections and the state of the single session, for a failure message when something waits too long. */
  describe(): string {
    return `${this.handlers.size} connection(s) open; ${this.queue.describe()}`;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.handlers].map((handler) => handler.detach(true)));
    this.handlers.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.db.close();
  }
}

/** Fails at start, naming the cause, if the installed pglite-socket no longer has the public handler API this relies on. */
function assertSocketApi(handler: typeof PGLiteSocketHandler): void {
  const proto = (handler as unknown as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  if (typeof handler !== 'function' || typeof proto?.attach !== 'function' || typeof proto?.detach !== 'function') {
    throw new Error('@electric-sql/pglite-socket: PGLiteSocketHandler with attach() and detach() is missing; the embedded database needs the pinned version in package.json');
  }
}
