import * as v8 from 'node:v8';
import { IdleCollector } from './idle-collector';
import type { RunDispatcher } from './run-dispatcher';
import type { SchedulerSettings } from './scheduler-settings';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1024 * 1024;

/** Garbage-to-be of at least `bytes`, kept reachable until the caller drops it. */
function allocate(bytes: number): number[][] {
  return Array.from({ length: Math.ceil(bytes / (40_000 * 8)) }, () => Array.from({ length: 40_000 }, (_, i) => i + 0.5));
}

/** The collector's threshold in this process: 64 MB, or half the live heap (a test worker's can be large). */
function threshold(): number {
  return Math.max(64 * MB, v8.getHeapStatistics().used_heap_size / 2);
}

describe('IdleCollector', () => {
  let untilRelease = 0;
  let inFlight = 0;
  const dispatcher = {
    msUntilNextRelease: () => untilRelease,
    get requestsInFlight() {
      return inFlight;
    },
  } as unknown as RunDispatcher;
  let collector: IdleCollector;

  beforeEach(() => {
    untilRelease = 0;
    inFlight = 0;
    collector = new IdleCollector({ enabled: true, idleCollection: true } as SchedulerSettings, dispatcher);
    collector.onApplicationBootstrap();
  });
  afterEach(() => collector.onModuleDestroy());

  it('collects a grown heap only while no release is near', async () => {
    let garbage: number[][] | null = allocate(threshold() + 64 * MB);
    const grown = v8.getHeapStatistics().used_heap_size;

    untilRelease = 50; // an instant 50 ms away: never a full collection now
    await sleep(450);
    expect(collector.collections).toBe(0);

    // Dropped only now, so that nothing but the collector has had a reason to collect it.
    expect(garbage.length).toBeGreaterThan(0);
    garbage = null;
    untilRelease = Infinity;
    await sleep(450);
    expect(collector.collections).toBeGreaterThanOrEqual(1);
    expect(v8.getHeapStatistics().used_heap_size).toBeLessThan(grown - 64 * MB);
  });

  it('waits for answers to arrive unless the heap has grown twice as much', async () => {
    untilRelease = Infinity;
    inFlight = 3;
    const limit = threshold();
    const garbage = allocate(limit + 16 * MB);
    await sleep(350);
    expect(collector.collections).toBe(0);

    garbage.push(...allocate(limit + 16 * MB));
    await sleep(350);
    expect(collector.collections).toBeGreaterThanOrEqual(1);
  });

  it('does nothing when the scheduler is disabled', async () => {
    const off = new IdleCollector({ enabled: false, idleCollection: true } as SchedulerSettings, dispatcher);
    off.onApplicationBootstrap();
    allocate(96 * MB);
    untilRelease = Infinity;
    await sleep(250);
    expect(off.collections).toBe(0);
    off.onModuleDestroy();
  });
});
