import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../../config/app-config';
import { scrubText, scrubValue } from './secret-scrubber';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a caller's X-Request-Id when it is safe to echo, otherwise mints one. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * Structured JSON logs, one line per event, with the request id on every
 * line written while a request is handled. Everything passes through the
 * secret scrubber, so no code path can leak a credential by logging it.
 */
export function loggerParams(config: AppConfig, destination?: DestinationStream): Params {
  return {
    pinoHttp: [
      {
        level: config.env.LOG_LEVEL,
        genReqId: requestIdFor,
        customProps: () => ({ service: 'cronbeam' }),
        autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/ping' || req.url === '/metrics' },
        serializers: {
          req: (req: { id: string; method: string; url: string; remoteAddress?: string }) => ({
            id: req.id,
            method: req.method,
            url: scrubText(req.url),
            remoteAddress: req.remoteAddress,
          }),
        },
        formatters: { log: (obj: Record<string, unknown>) => scrubValue(obj) as Record<string, unknown> },
        hooks: {
          logMethod(args: unknown[], method: (...a: unknown[]) => void) {
            method.apply(this, args.map((a) => (typeof a === 'string' ? scrubText(a) : a)));
          },
        },
      },
      destination as DestinationStream,
    ].filter(Boolean) as Params['pinoHttp'],
  };
}
