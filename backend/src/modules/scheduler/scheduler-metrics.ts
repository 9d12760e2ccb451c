import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsRegistry } from '../metrics/metrics-registry';

/** The scheduler's Prometheus metrics. */
@Injectable()
export class SchedulerMetrics {
  readonly executions: Counter<'outcome' | 'trigger'>;
  readonly lateness: Histogram;
  readonly inFlight: Gauge;
  readonly queueDepth: Gauge;

  constructor(registry: MetricsRegistry) {
    this.executions = new Counter({
      name: 'cronbeam_executions_total',
      help: 'Executions by outcome (success, failed) and trigger',
      labelNames: ['outcome', 'trigger'],
      registers: [registry],
    });
    this.lateness = new Histogram({
      name: 'cronbeam_dispatch_lateness_seconds',
      help: 'Time from a run\'s due instant to the moment its request was sent',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.inFlight = new Gauge({ name: 'cronbeam_executions_in_flight', help: 'HTTP requests currently in flight', registers: [registry] });
    this.queueDepth = new Gauge({
      name: 'cronbeam_dispatch_queue_depth',
      help: 'Runs claimed by this instance and waiting for their due instant or a free execution slot',
      registers: [registry],
    });
  }
}
