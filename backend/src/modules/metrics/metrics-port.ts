import { createServer, type Server } from 'node:http';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { MetricsAccess } from './metrics-access';
import { MetricsRegistry } from './metrics-registry';

/**
 * With METRICS_PORT, /metrics is served by a plain HTTP server of its own
 * bound to 127.0.0.1 only: a scraper on the same host (or a sidecar) reads
 * it, nothing from outside can reach it, and it needs no token.
 */
@Injectable()
export class MetricsPort implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsPort.name);
  private server: Server | null = null;

  constructor(
    private readonly access: MetricsAccess,
    private readonly registry: MetricsRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const exposure = this.access.exposure;
    if (exposure.kind === 'off') this.logger.warn('/metrics is off: set METRICS_TOKEN or METRICS_PORT to expose it');
    if (exposure.kind !== 'loopback-port') return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET' || path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not found' }));
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType, 'cache-control': 'no-store' }).end(text),
        () => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Internal server error' })),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(exposure.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.logger.log(`/metrics served on http://127.0.0.1:${exposure.port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
