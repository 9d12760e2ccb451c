import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { EmbeddedPostgres } from './embedded-postgres';

/** Where the server's PostgreSQL is, and how to let go of it. */
export interface DatabaseEndpoint {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise an embedded PostgreSQL persisted under
 * DATA_DIR/pg, so `npm start` needs nothing installed. The embedded server
 * lives outside Nest because it must outlive the TypeORM pool on shutdown.
 */
export async function openDatabase(config: AppConfig, dataDir = path.join(config.dataDir, 'pg')): Promise<DatabaseEndpoint> {
  if (config.env.DATABASE_URL) {
    return { url: config.env.DATABASE_URL, embedded: false, close: async () => undefined };
  }
  // Headroom over the pool for LISTEN and maintenance connections.
  const embedded = await EmbeddedPostgres.start(dataDir, config.env.DATABASE_POOL_SIZE + 4);
  return { url: embedded.url, embedded: true, close: () => embedded.stop() };
}
