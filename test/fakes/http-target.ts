import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the target received, with its arrival time (epoch ms, sub-millisecond precision). */
export interface ReceivedRequest {
  arrivedAt: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** How the target answers a request; the default is 200 with a small JSON body. */
export type TargetBehaviour = (req: ReceivedRequest, res: ServerResponse) => void;

const ORIGIN = performance.timeOrigin;

/**
 * A local HTTP endpoint for scheduler tests and the benchmark: records every
 * request with its arrival time and answers as the test scripts it per path.
 */
export class HttpTarget {
  readonly received: ReceivedRequest[] = [];
  private readonly routes = new Map<string, TargetBehaviour>();
  private readonly waiters: Array<{ test: () => boolean; resolve: () => void }> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<HttpTarget> {
    const server = createServer({ keepAliveTimeout: 60_000 });
    server.maxConnections = 10_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const target = new HttpTarget(server, `http://127.0.0.1:${port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const arrivedAt = ORIGIN + performance.now();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => target.handle({ arrivedAt, method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }, res));
    });
    return target;
  }

  /** Scripts the answer for one path (query string ignored). */
  on(path: string, behaviour: TargetBehaviour): void {
    this.routes.set(path, behaviour);
  }

  /** Requests received on one path. */
  requests(path: string): ReceivedRequest[] {
    return this.received.filter((r) => r.path.split('?')[0] === path);
  }

  /** Resolves when `test` holds (checked on each arrival), or rejects after `timeoutMs`. */
  waitFor(test: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`target: condition not met within ${timeoutMs} ms (received ${this.received.length})`)), timeoutMs);
      this.waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: ReceivedRequest, res: ServerResponse): void {
    this.received.push(req);
    const behaviour = this.routes.get(req.path.split('?')[0]);
    if (behaviour) behaviour(req, res);
    else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    }
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i].test()) this.waiters.splice(i, 1)[0].resolve();
    }
  }
}
