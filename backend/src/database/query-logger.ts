import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/** Enough of a failed statement to find it in the code; bulk inserts carry their rows in the SQL text. */
const SQL_SHOWN = 300;

/**
 * What TypeORM has to say, through the service's logger (JSON lines, the
 * secret scrubber) instead of its own coloured console output.
 *
 * A failed statement is logged at debug level, with its SQL and the error but
 * never its parameters: those are what users sent (emails, mail bodies,
 * token hashes). Most failures are expected and answered (a taken name is a
 * unique violation, a full plan an empty insert); one that is not reaches the
 * HTTP error filter or the caller's own warning, which log it with context.
 * Migrations are logged as they run.
 */
export class QueryLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string, _parameters?: unknown[]): void {
    const message = error instanceof Error ? error.message : error;
    this.logger.debug(`Query failed: ${message} (${query.replace(/\s+/g, ' ').trim().slice(0, SQL_SHOWN)})`);
  }

  logQuerySlow(): void {}

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}
