import * as fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { serialiseExtendedProtocol } from './embedded-protocol-lock';

/**
 * An in-process PostgreSQL (PGlite, PostgreSQL compiled to WebAssembly) behind
 * a loopback socket, so the application talks to it with the same `pg`
 * driver, SQL and migrations it uses against a real server.
 *
 * PGlite is a single session: every pooled connection is multiplexed onto it.
 * maxConnections must be at least the pool size (the default of 1 crashes
 * under a larger pool), and a transaction holds the session until it ends.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
  ) {}

  /** dataDir persists the cluster on disk; `memory://` keeps it in memory (tests). */
  static async start(dataDir: string, maxConnections: number): Promise<EmbeddedPostgres> {
    if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create(dataDir);
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
    serialiseExtendedProtocol(server, db);
    await server.start();
    const port = Number(new URL(`postgres://${server.getServerConn()}`).port);
    return new EmbeddedPostgres(db, server, `postgres://postgres@127.0.0.1:${port}/postgres`);
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}
