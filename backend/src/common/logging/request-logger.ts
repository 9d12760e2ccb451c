import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Logger } from 'pino';
import { scrubText } from './secret-scrubber';

declare module 'http' {
  interface IncomingMessage {
    /** The request's id, echoed in X-Request-Id (set by the request logging hook; Fastify's request.id is the same). */
    id: string;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The logger that request lines and requestLog() children come from (registerRequestLogging). */
    [SERVICE_LOGGER]: Logger;
  }
}

/** Where the service logger is kept on the Fastify instance: a symbol, so no route or plugin can clash with it. */
const SERVICE_LOGGER = Symbol('cronbeam.serviceLogger');

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Polled by load balancers and Prometheus many times a minute: a line each would drown the rest. */
const UNLOGGED_PATHS = new Set(['/api/ping', '/metrics']);

/** Reuses a caller's X-Request-Id when it is safe to echo, otherwise mints one (Fastify's genReqId). */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * What a line says of a request: picked fields only (headers carry tokens and
 * cookies), the URL scrubbed of secrets (query values, ping tokens), the
 * socket's address and the client's address that per-address limits use
 * (`clientAddress`: Fastify's request.ip, which follows TRUST_PROXY).
 */
function requestFields(req: IncomingMessage, url: string, clientAddress: string | undefined): Record<string, unknown> {
  return { id: req.id, method: req.method, url: scrubText(url), remoteAddress: req.socket?.remoteAddress, clientAddress };
}

/**
 * Registers the first onRequest hook: it gives each request its id (`req.id`,
 * echoed in X-Request-Id) and logs one line per finished request ("request
 * completed"; "request errored" at error level for a 5xx; "request aborted"
 * when the client left before the response ended). Code that logs about a
 * request takes a logger bound to it from requestLog().
 *
 * Written here rather than with pino-http: that made two child loggers per
 * request and serialized the request into each, about a tenth of the CPU a
 * listed-jobs request cost (docs/adr/0110-api-throughput.md). Here a request's
 * child logger is made only when something logs about it (error paths), and
 * the finished line is written through the service logger with the same
 * fields. The hook adds nothing else to the request: a per-request accessor
 * (`Object.defineProperty` on each IncomingMessage) cost 5-8% of a ping.
 *
 * The request id is not carried into service code through AsyncLocalStorage
 * (as nestjs-pino does): on Node 20, a single active AsyncLocalStorage installs
 * V8 promise hooks for the whole process, and the scheduler creates several
 * promises per execution; measured, the hooks made each burst of the steady
 * benchmark about 10% slower.
 */
export function registerRequestLogging(fastify: FastifyInstance, root: Logger): void {
  const service = root.child({ service: 'cronbeam' });
  fastify.decorate(SERVICE_LOGGER, service);
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const req = request.raw;
    const res: ServerResponse = reply.raw;
    req.id = request.id;
    res.setHeader('X-Request-Id', request.id);
    const url = req.url ?? '';
    if (!UNLOGGED_PATHS.has(url)) {
      const started = Date.now();
      // 'close' follows 'finish' for a completed response and comes alone for an aborted one.
      res.once('close', () => {
        const line = { req: requestFields(req, url, request.ip), res: { statusCode: res.statusCode }, responseTime: Date.now() - started };
        if (res.statusCode >= 500) service.error(line, 'request errored');
        else if (!res.writableFinished) service.info(line, 'request aborted');
        else service.info(line, 'request completed');
      });
    }
    done();
  });
}

/** A logger whose lines carry the request's id, method, path and client address (as its finished line does). */
export function requestLog(request: FastifyRequest): Logger {
  return request.server[SERVICE_LOGGER].child({ req: requestFields(request.raw, request.raw.url ?? '', request.ip) });
}
