import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { EmbeddedPostgres } from '../../backend/src/database/embedded-postgres';
import { MIGRATIONS } from '../../backend/src/database/migrations';

/** A database of its own for one test file: a fresh PostgreSQL database, or a fresh in-memory embedded one. */
export interface TestDatabase {
  url: string;
  kind: 'postgres' | 'embedded';
  /** What the database is doing, for a failure message when a test has waited too long (see setup-watch.ts). */
  describe(): string;
  drop(): Promise<void>;
}

/** Every database of this process not dropped yet: a set-up that hangs reports on each (see setup-watch.ts). */
const live = new Set<TestDatabase>();

export function describeLiveDatabases(): string[] {
  return [...live].map((db) => `${db.kind}: ${db.describe()}`);
}

function tracked(db: TestDatabase): TestDatabase {
  live.add(db);
  const drop = db.drop;
  return Object.assign(db, {
    drop: async () => {
      live.delete(db);
      await drop();
    },
  });
}

export interface TestDatabaseOptions {
  /**
   * For a database an application is about to start on (it applies the
   * migrations it finds missing): an embedded one then begins with every
   * migration applied, from the cluster the global set-up migrated for this
   * run (seconds per server on PGlite). A PostgreSQL one is empty either way,
   * as is every database made without this option.
   */
  migrated?: boolean;
}

/** The environment variable through which the global set-up names its migrated cluster's file. */
const MIGRATED_CLUSTER_FILE = 'CRONBEAM_TEST_MIGRATED_CLUSTER';

/**
 * With TEST_DATABASE_URL (a server where the user may CREATE DATABASE) each
 * call creates a uniquely named database and drops it afterwards; without it,
 * each call starts an in-memory embedded PostgreSQL.
 */
export async function createTestDatabase(poolSize = 10, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const migratedFile = options.migrated ? process.env[MIGRATED_CLUSTER_FILE] : undefined;
    const from = migratedFile ? new Blob([await fs.promises.readFile(migratedFile)]) : await emptyClusterTemplate();
    const embedded = await EmbeddedPostgres.start('memory://', poolSize + 4, from);
    return tracked({ url: embedded.url, kind: 'embedded', describe: () => embedded.describe(), drop: () => embedded.stop() });
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
  return tracked({
    url: url.toString(),
    kind: 'postgres',
    // A PostgreSQL server has its own views (pg_stat_activity, pg_locks) for this.
    describe: () => 'a PostgreSQL server database',
    drop: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  });
}

/**
 * The empty cluster every embedded test database starts from, instead of
 * running initdb for each one (seconds each, most of an API file's set-up on
 * the embedded database). It is dumped once, by whichever test process needs
 * it first, into the temporary directory under a hash of the PGlite build
 * (an empty cluster depends on nothing else), so a new build makes a new one.
 * The file is written whole or not at all (renamed into place) and never
 * changed after; each database loads its own copy into memory, so nothing is
 * shared between test files.
 */
async function emptyClusterTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `cronbeam-test-pglite-${pgliteBuildHash()}.tar.gz`);
  try {
    return new Blob([await fs.promises.readFile(file)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const dump = await EmbeddedPostgres.emptyCluster();
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.promises.writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await fs.promises.rename(partial, file);
  return dump;
}

/** The installed PGlite's version and the bytes of its PostgreSQL, initdb and their support files. */
function pgliteBuildHash(): string {
  const dist = path.dirname(require.resolve('@electric-sql/pglite'));
  const hash = createHash('sha256');
  for (const name of ['../package.json', 'pglite.wasm', 'initdb.wasm', 'pglite.data']) hash.update(fs.readFileSync(path.join(dist, name)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Jest's global set-up (jest.config.js) for a run on the embedded database:
 * migrates one cluster and dumps it to a file of this run, which the test
 * files' databases made with `migrated` load. Once per run rather than cached
 * longer, since what the migrations make depends on the day too (the run
 * history's weekly partitions are made from the current week on).
 */
export async function prepareMigratedCluster(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const embedded = await EmbeddedPostgres.start('memory://', 2, await emptyClusterTemplate());
  try {
    const source = new DataSource({ type: 'postgres', url: embedded.url, migrations: MIGRATIONS, migrationsTransactionMode: 'each', installExtensions: false, uuidExtension: 'pgcrypto', poolSize: 1 });
    await source.initialize();
    try {
      await source.runMigrations();
    } finally {
      await source.destroy();
    }
    const file = path.join(os.tmpdir(), `cronbeam-test-migrated-${process.pid}-${randomBytes(4).toString('hex')}.tar.gz`);
    await fs.promises.writeFile(file, Buffer.from(await (await embedded.dump()).arrayBuffer()));
    process.env[MIGRATED_CLUSTER_FILE] = file;
  } finally {
    await embedded.stop();
  }
}

/** Jest's global tear-down: removes the run's migrated cluster. */
export async function removeMigratedCluster(): Promise<void> {
  const file = process.env[MIGRATED_CLUSTER_FILE];
  if (!file) return;
  delete process.env[MIGRATED_CLUSTER_FILE];
  await fs.promises.rm(file, { force: true });
}
