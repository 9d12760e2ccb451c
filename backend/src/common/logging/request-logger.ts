import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { scrubText } from './secret-scrubber';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a caller's X-Request-Id when it is safe to echo, otherwise mints one. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * HTTP middleware: gives each request its id (`req.id`, echoed in
 * X-Request-Id) and a child logger bound to it (`req.log`), and logs one line
 * per finished request.
 *
 * The request id is not carried into service code through AsyncLocalStorage
 * (as nestjs-pino does): on Node 20, a single active AsyncLocalStorage installs
 * V8 promise hooks for the whole process, and the scheduler creates several
 * promises per execution; measured, the hooks made each burst of the steady
 * benchmark about 10% slower. Code that logs about a request uses `req.log`.
 */
export function requestLogger(root: Logger) {
  return pinoHttp({
    logger: root,
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
      // The status only: response headers carry Set-Cookie (the refresh token).
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
