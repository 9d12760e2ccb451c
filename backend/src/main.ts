import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp, stopGracefully } from './bootstrap';
import { AppConfig, ConfigError } from './config/app-config';
import { longestExecutionMs, shutdownBudget } from './config/shutdown-budget';
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

    const budget = shutdownBudget(config.env);
    if (!budget.coversLongestExecution) {
      logger.warn(
        `SHUTDOWN_TIMEOUT_MS (${budget.totalMs} ms) leaves requests ${budget.executionsMs} ms to finish, less than the longest execution (${longestExecutionMs(config.env)} ms: connection wait + EXECUTION_TIMEOUT_MS): requests still unanswered then are recorded as interrupted`,
      );
    }
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.log(`${signal} received: refusing new requests, finishing in-flight work (up to ${budget.totalMs} ms), then stopping`);
      // The last resort: something (the database, a hook) hangs past the whole budget.
      setTimeout(() => {
        process.stderr.write('Shutdown timed out; exiting\n');
        process.exit(1);
      }, budget.totalMs).unref();
      try {
        const interrupted = await stopGracefully(app, budget);
        if (interrupted > 0) logger.warn(`${interrupted} execution(s) still unanswered at the end of the stop budget were recorded as interrupted`);
        await app.close(); // hooks (the liveness row is deleted), then the HTTP server and the pool
        await database?.close();
      } catch (error) {
        process.stderr.write(`Stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      }
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
