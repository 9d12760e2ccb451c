import { HttpStatus } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError } from './api-error';

/** What a request gets while the server stops; a client (or a load balancer) retries it elsewhere or after the restart. */
export const STOPPING_DETAIL = 'The server is shutting down; retry the request in a moment';
const STOPPING_RETRY_AFTER_S = 1;

/** How often a stop looks whether the requests it waits for are answered (a stream can start between two closes). */
const SETTLE_POLL_MS = 50;

function isEventStream(res: ServerResponse): boolean {
  return String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

/**
 * The HTTP side of a graceful stop: once stopping, every new request is
 * answered 503 with Retry-After (the connection then closes), and the stop
 * waits until every request taken before is answered. Event streams never
 * end by themselves: they are not waited for, and are closed with the
 * remaining connections once everything else is answered.
 */
export class HttpDrain {
  private stopping = false;
  private readonly open = new Set<ServerResponse>();

  /** An onRequest hook, ahead of the body parser and every route. */
  readonly hook = (_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const res = reply.raw;
    if (this.stopping) {
      res.setHeader('Connection', 'close');
      done(new ApiError(HttpStatus.SERVICE_UNAVAILABLE, STOPPING_DETAIL, { 'Retry-After': String(STOPPING_RETRY_AFTER_S) }));
      return;
    }
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
    done();
  };

  /** From now on new requests are refused. */
  refuseNew(): void {
    this.stopping = true;
  }

  /** Requests taken before the stop and not answered yet, event streams left out. */
  private unanswered(): number {
    let count = 0;
    for (const res of this.open) if (!isEventStream(res)) count++;
    return count;
  }

  /** Resolves once every request but the event streams is answered, or at `deadline` (performance.now()). */
  async settled(deadline: number): Promise<void> {
    while (this.unanswered() > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_POLL_MS, Math.max(1, deadline - performance.now()))));
    }
  }
}
