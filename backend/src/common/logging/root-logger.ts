import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { scrubText, scrubValue } from './secret-scrubber';

/**
 * The process's one pino logger: structured JSON, one line per event, to
 * stdout unless a destination is given (tests capture it). Everything passes
 * through the secret scrubber, so no code path can leak a credential by
 * logging it. Request lines and Nest's logger write through it.
 */
export function createRootLogger(config: AppConfig, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level: config.env.LOG_LEVEL,
    formatters: { log: (obj: Record<string, unknown>) => scrubValue(obj) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as Parameters<typeof method>);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
