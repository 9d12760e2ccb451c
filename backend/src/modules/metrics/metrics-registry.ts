import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The application's Prometheus registry: one per app instance (not prom-client's
 * global one), so several apps in one process (tests) never collide.
 */
@Injectable()
export class MetricsRegistry extends Registry {
  constructor() {
    super();
    collectDefaultMetrics({ register: this, prefix: 'cronbeam_' });
  }
}
