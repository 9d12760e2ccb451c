import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './bootstrap';
import { AppConfig, ConfigError } from './config/app-config';
import { openDatabase, type DatabaseEndpoint } from './database/database-endpoint';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = AppConfig.fromEnvironment(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  let database: DatabaseEndpoint | undefined;
  try {
    database = await openDatabase(config);
    const app = await createApp(config, { databaseUrl: database.url });
    const logger = new Logger('Bootstrap');
    await app.listen(config.env.PORT, config.env.HOST);
    logger.log(`Cronbeam listening on ${config.publicUrl} (database: ${database.embedded ? `embedded, ${config.dataDir}` : 'PostgreSQL'})`);

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.log(`${signal} received: finishing in-flight work, then stopping`);
      setTimeout(() => {
        process.stderr.write('Shutdown timed out; exiting\n');
        process.exit(1);
      }, config.env.SHUTDOWN_TIMEOUT_MS).unref();
      await app.close(); // stops accepting, waits for in-flight requests, closes the pool
      await database?.close();
      process.exit(0);
    };
    process.on('SIGTERM', () => void stop('SIGTERM'));
    process.on('SIGINT', () => void stop('SIGINT'));
  } catch (error) {
    process.stderr.write(`Cronbeam failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    await database?.close().catch(() => undefined);
    process.exit(1);
  }
}

void main();
