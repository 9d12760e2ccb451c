import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsRegistry } from '../metrics';

/** What the dispatcher reports when metrics are scraped. */
export interface DispatchGauges {
  inFlight(): number;
  backlog(): number;
}

/** Lateness values held between scrapes; when full, they are folded into the histogram at once. */
const LATENESS_BUFFER = 16_384;

/**
 * The Prometheus metrics of executions (scheduled and manual) and of their dispatch. The hot path only writes plain numbers
 * (a buffered lateness, a per-label count); prom-client's objects are updated
 * when /metrics is scraped. Its observe() and inc() hash their labels and
 * allocate on every call, which measurably lengthened a burst of 1,000
 * requests when done per request.
 */
@Injectable()
export class ExecutionMetrics {
  private readonly lateness: Histogram;
  private readonly latenessBuffer = new Float64Array(LATENESS_BUFFER);
  private latenessCount = 0;
  /** Executions not yet folded into the counter, per trigger. */
  private readonly executionCounts = new Map<string, { success: number; failed: number }>();
  private gauges: DispatchGauges = { inFlight: () => 0, backlog: () => 0 };

  constructor(registry: MetricsRegistry) {
    const executions: Counter<'outcome' | 'trigger'> = new Counter({
      name: 'cronbeam_executions_total',
      help: 'Executions by outcome (success, failed) and trigger',
      labelNames: ['outcome', 'trigger'],
      registers: [registry],
      collect: () => {
        for (const [trigger, counts] of this.executionCounts) {
          for (const outcome of ['success', 'failed'] as const) {
            if (counts[outcome] === 0) continue;
            executions.inc({ outcome, trigger }, counts[outcome]);
            counts[outcome] = 0;
          }
        }
      },
    });
    this.lateness = new Histogram({
      name: 'cronbeam_dispatch_lateness_seconds',
      help: 'Time from a run\'s due instant to the moment its request was sent',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
      collect: () => this.foldLateness(),
    });
    const inFlight: Gauge = new Gauge({
      name: 'cronbeam_executions_in_flight',
      help: 'HTTP requests currently in flight',
      registers: [registry],
      collect: () => inFlight.set(this.gauges.inFlight()),
    });
    const queueDepth: Gauge = new Gauge({
      name: 'cronbeam_dispatch_queue_depth',
      help: 'Runs claimed by this instance and waiting for their due instant or a free execution slot',
      registers: [registry],
      collect: () => queueDepth.set(this.gauges.backlog()),
    });
  }

  /** The dispatcher registers itself as the source of the in-flight and queue-depth gauges. */
  readGaugesFrom(source: DispatchGauges): void {
    this.gauges = source;
  }

  observeLateness(seconds: number): void {
    if (this.latenessCount === LATENESS_BUFFER) this.foldLateness();
    this.latenessBuffer[this.latenessCount++] = seconds;
  }

  countExecution(outcome: 'success' | 'failed', trigger: string): void {
    let counts = this.executionCounts.get(trigger);
    if (!counts) this.executionCounts.set(trigger, (counts = { success: 0, failed: 0 }));
    counts[outcome]++;
  }

  private foldLateness(): void {
    for (let i = 0; i < this.latenessCount; i++) this.lateness.observe(this.latenessBuffer[i]);
    this.latenessCount = 0;
  }
}
