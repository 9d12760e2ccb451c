import { DynamicModule, Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppConfig } from '../config/app-config';

/**
 * Where one read goes. 'primary': every read that decides a write (limits,
 * quota, sign-in, idempotency, names that must be unique) or that follows a
 * write of the same request. 'replica': what is only shown (lists, logs,
 * exports, dashboards, status pages), which may lag the primary by the
 * replica's delay (docs/adr/0171-read-replica.md). Repositories take it
 * explicitly so that a reader sees at the call which it gets.
 */
export type ReadFrom = 'primary' | 'replica';

const REPLICA_DATA_SOURCE = Symbol('REPLICA_DATA_SOURCE');

/**
 * The primary and, with DATABASE_READ_URL, a second pool on the read
 * replica. Without DATABASE_READ_URL 'replica' reads go to the primary, as
 * before. The replica's pool has the same entities and size as the
 * primary's and runs no migrations: the primary's reach it by replication.
 */
@Injectable()
export class ReadDatabase {
  constructor(
    @Inject(getDataSourceToken()) private readonly primary: DataSource,
    @Inject(REPLICA_DATA_SOURCE) private readonly replica: DataSource | null,
  ) {}

  /** Whether 'replica' reads go to a database of their own (DATABASE_READ_URL). */
  get hasReplica(): boolean {
    return this.replica !== null;
  }

  manager(from: ReadFrom): EntityManager {
    return (from === 'replica' && this.replica ? this.replica : this.primary).manager;
  }

  query<T = unknown>(from: ReadFrom, sql: string, parameters?: unknown[]): Promise<T> {
    return this.manager(from).query(sql, parameters);
  }
}

/** Closes the replica's pool with the application (the primary's is TypeORM's module's to close). */
@Injectable()
class ReplicaPool implements OnApplicationShutdown {
  constructor(@Inject(REPLICA_DATA_SOURCE) private readonly replica: DataSource | null) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.replica?.isInitialized) await this.replica.destroy();
  }
}

async function openReplica(primary: DataSource, config: AppConfig): Promise<DataSource | null> {
  const url = config.env.DATABASE_READ_URL;
  if (!url) return null;
  const options = primary.options as PostgresConnectionOptions;
  const replica = new DataSource({
    ...options,
    name: 'replica',
    url,
    // The replica is read-only and follows the primary's schema by replication.
    migrations: [],
    migrationsRun: false,
    extra: { ...options.extra, application_name: 'cronbeam-read' },
  });
  try {
    await replica.initialize();
  } catch (error) {
    // The URL may hold a password: name the setting, not its value.
    throw new Error(`DATABASE_READ_URL: cannot connect to the read replica: ${error instanceof Error ? error.message : String(error)}`);
  }
  new Logger('ReadDatabase').log('Lists, logs, exports, dashboards and status pages read from the replica at DATABASE_READ_URL');
  return replica;
}

/** Makes ReadDatabase injectable everywhere; opens the replica's pool after the primary's (and its migrations). */
@Global()
@Module({})
export class ReadDatabaseModule {
  static forRoot(): DynamicModule {
    return {
      module: ReadDatabaseModule,
      providers: [
        { provide: REPLICA_DATA_SOURCE, inject: [getDataSourceToken(), AppConfig], useFactory: openReplica },
        ReadDatabase,
        ReplicaPool,
      ],
      exports: [ReadDatabase],
    };
  }
}
