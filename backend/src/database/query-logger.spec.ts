import { Logger, type LoggerService } from '@nestjs/common';
import { QueryLogger } from './query-logger';

describe('QueryLogger', () => {
  const lines: Array<{ level: string; message: string; context: string }> = [];
  const capture = (level: string) => (message: unknown, context: unknown) => void lines.push({ level, message: String(message), context: String(context) });
  const sink: LoggerService = { log: capture('log'), warn: capture('warn'), error: capture('error'), debug: capture('debug'), verbose: capture('verbose') };

  beforeEach(() => {
    lines.length = 0;
    Logger.overrideLogger(sink);
  });
  afterAll(() => Logger.overrideLogger(new Logger()));

  it('logs a failed statement with its SQL and error at debug level, never its parameters', () => {
    new QueryLogger().logQueryError(new Error('duplicate key value violates unique constraint "users_email_key"'), 'INSERT INTO users (email, password_hash)\n   VALUES ($1, $2)', [
      'someone@example.test',
      'scrypt$secret-hash',
    ]);
    expect(lines).toEqual([
      {
        level: 'debug',
        context: 'Database',
        message: 'Query failed: duplicate key value violates unique constraint "users_email_key" (INSERT INTO users (email, password_hash) VALUES ($1, $2))',
      },
    ]);
  });

  it('logs migrations as they run and ignores successful queries', () => {
    const logger = new QueryLogger();
    logger.logQuery();
    logger.logMigration('Migration JobCounts1763809800000 has been executed successfully.');
    expect(lines).toEqual([{ level: 'log', context: 'Database', message: 'Migration JobCounts1763809800000 has been executed successfully.' }]);
  });
});
