import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { EmbeddedPostgres } from '../../backend/src/database/embedded-postgres';

/** A database of its own for one test file: a fresh PostgreSQL database, or a fresh in-memory embedded one. */
export interface TestDatabase {
  url: string;
  kind: 'postgres' | 'embedded';
  drop(): Promise<void>;
}

/**
 * With TEST_DATABASE_URL (a server where the user may CREATE DATABASE) each
 * call creates a uniquely named database and drops it afterwards; without it,
 * each call starts an in-memory embedded PostgreSQL.
 */
export async function createTestDatabase(poolSize = 10): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const embedded = await EmbeddedPostgres.start('memory://', poolSize + 4);
    return { url: embedded.url, kind: 'embedded', drop: () => embedded.stop() };
  }
  const name = `cronbeam_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: 'postgres',
    drop: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
