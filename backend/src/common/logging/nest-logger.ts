import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * Nest's logger interface over pino. Nest appends the logger's context (the
 * class name given to `new Logger(...)`) as the last argument; it becomes the
 * `context` field. An object first argument is merged into the line, an Error
 * becomes `err`.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    let rest = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, ...(rest as [string?]));
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level](Object.assign(fields, message), ...(rest as [string?]));
    } else if (level === 'error' && rest.length === 1 && typeof rest[0] === 'string' && /\n[\t ]*at /.test(rest[0])) {
      // Nest's own exception handlers call error(message, stack, context).
      const err = new Error(String(message));
      err.stack = rest[0];
      this.logger.error({ ...fields, err });
    } else {
      this.logger[level](fields, String(message), ...(rest as []));
    }
  }
}
