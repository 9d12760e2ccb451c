import { MetricsRegistry } from '../metrics';
import { ExecutionMetrics } from './execution-metrics';

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.slice(series.length + 1));
}

describe('ExecutionMetrics', () => {
  it('reports buffered lateness in the histogram when scraped, beyond one buffer full', async () => {
    const registry = new MetricsRegistry();
    const metrics = new ExecutionMetrics(registry);
    for (let i = 0; i < 20_000; i++) metrics.observeLateness(i < 19_999 ? 0.002 : 0.2);
    const text = await registry.metrics();
    expect(sample(text, 'cronbeam_dispatch_lateness_seconds_count')).toBe(20_000);
    expect(sample(text, 'cronbeam_dispatch_lateness_seconds_bucket{le="0.005"}')).toBe(19_999);
    expect(sample(text, 'cronbeam_dispatch_lateness_seconds_bucket{le="0.25"}')).toBe(20_000);
    // Folded values are not counted twice.
    expect(sample(await registry.metrics(), 'cronbeam_dispatch_lateness_seconds_count')).toBe(20_000);
  });

  it('adds execution counts up across scrapes, per outcome and trigger', async () => {
    const registry = new MetricsRegistry();
    const metrics = new ExecutionMetrics(registry);
    metrics.countExecution('success', 'schedule');
    metrics.countExecution('success', 'schedule');
    metrics.countExecution('failed', 'retry');
    await registry.metrics();
    metrics.countExecution('success', 'schedule');
    const text = await registry.metrics();
    expect(sample(text, 'cronbeam_executions_total{outcome="success",trigger="schedule"}')).toBe(3);
    expect(sample(text, 'cronbeam_executions_total{outcome="failed",trigger="retry"}')).toBe(1);
  });

  it('reads the in-flight and queue-depth gauges from the dispatcher at scrape time', async () => {
    const registry = new MetricsRegistry();
    const metrics = new ExecutionMetrics(registry);
    let inFlight = 7;
    metrics.readGaugesFrom({ inFlight: () => inFlight, backlog: () => 42 });
    expect(sample(await registry.metrics(), 'cronbeam_executions_in_flight')).toBe(7);
    inFlight = 0;
    const text = await registry.metrics();
    expect(sample(text, 'cronbeam_executions_in_flight')).toBe(0);
    expect(sample(text, 'cronbeam_dispatch_queue_depth')).toBe(42);
  });
});
