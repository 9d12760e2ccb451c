import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { MIGRATIONS } from './migrations';
import { QueryLogger } from './query-logger';

/**
 * TypeORM on the `pg` driver for both the embedded and a real PostgreSQL:
 * migrations are the only way the schema changes, and they run on start.
 * Entities register themselves through TypeOrmModule.forFeature.
 */
export function databaseOptions(url: string, poolSize: number): TypeOrmModuleOptions {
  return {
    type: 'postgres',
    url,
    autoLoadEntities: true,
    synchronize: false,
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    poolSize,
    extra: { max: poolSize, connectionTimeoutMillis: 10_000, application_name: 'cronbeam' },
    logging: ['error', 'migration'],
    logger: new QueryLogger(),
    retryAttempts: 3,
    retryDelay: 500,
  };
}
