import * as v8 from 'node:v8';
import { IdleCollector } from './idle-collector';
import type { RunDispatcher } from './run-dispatcher';
import type { SchedulerSettings } from './scheduler-settings';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('IdleCollector', () => {
  let quietFor = 0;
  const dispatcher = { quietForMs: () => quietFor } as unknown as RunDispatcher;
  let collector: IdleCollector;

  beforeEach(() => {
    collector = new IdleCollector({ enabled: true, idleCollection: true } as SchedulerSettings, dispatcher);
    collector.onApplicationBootstrap();
  });
  afterEach(() => collector.onModuleDestroy());

  it('collects a grown heap only while no release is near', async () => {
    // More than the collector's threshold: 64 MB, or half the live heap (a test worker's can be large).
    const threshold = Math.max(64 * 1024 * 1024, v8.getHeapStatistics().used_heap_size / 2);
    const arrays = Math.ceil((threshold + 64 * 1024 * 1024) / (40_000 * 8));
    let garbage: number[][] | null = Array.from({ length: arrays }, () => Array.from({ length: 40_000 }, (_, i) => i + 0.5));
    const grown = v8.getHeapStatistics().used_heap_size;

    quietFor = 50; // an instant 50 ms away: never a full collection now
    await sleep(450);
    expect(collector.collections).toBe(0);

    // Dropped only now, so that nothing but the collector has had a reason to collect it.
    expect(garbage).toHaveLength(arrays);
    garbage = null;
    quietFor = Infinity;
    await sleep(450);
    expect(collector.collections).toBeGreaterThanOrEqual(1);
    expect(v8.getHeapStatistics().used_heap_size).toBeLessThan(grown - 64 * 1024 * 1024);
  });

  it('does nothing when the scheduler is disabled', async () => {
    const off = new IdleCollector({ enabled: false, idleCollection: true } as SchedulerSettings, dispatcher);
    off.onApplicationBootstrap();
    Array.from({ length: 200 }, () => Array.from({ length: 40_000 }, (_, i) => i + 0.5));
    quietFor = Infinity;
    await sleep(250);
    expect(off.collections).toBe(0);
    off.onModuleDestroy();
  });
});
