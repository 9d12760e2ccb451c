import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { until } from '../../../../test/support/until';
import { IdleCollector } from './idle-collector';
import type { RunDispatcher } from './run-dispatcher';
import type { SchedulerSettings } from './scheduler-settings';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1024 * 1024;

/** Garbage-to-be of at least `bytes`, kept reachable until the caller drops it. */
function allocate(bytes: number): number[][] {
  return Array.from({ length: Math.ceil(bytes / (40_000 * 8)) }, () => Array.from({ length: 40_000 }, (_, i) => i + 0.5));
}

/** More than the collector's threshold in this process: 88 MB, or half the live heap (a test worker's can be large). */
function overThreshold(): number {
  return Math.max(88 * MB, v8.getHeapStatistics().used_heap_size / 2) + 32 * MB;
}

describe('IdleCollector', () => {
  let untilRelease = 0;
  let tailListeners: Array<() => void> = [];
  const dispatcher = {
    msUntilNextRelease: () => untilRelease,
    onBurstTail: (listener: () => void) => tailListeners.push(listener),
  } as unknown as RunDispatcher;
  let collector: IdleCollector;

  /** What the dispatcher does when a burst is down to its last requests. */
  function burstTail(): void {
    const listeners = tailListeners;
    tailListeners = [];
    for (const listener of listeners) listener();
  }

  // The service is started with --expose-gc; jest is not, so the test exposes gc() the way that flag does.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const global = globalThis as { gc?: () => void };

  beforeEach(() => {
    global.gc = gc;
    // The collector measures growth from what is in use when it starts: start from a collected heap.
    gc();
    untilRelease = 0;
    tailListeners = [];
    collector = new IdleCollector({ enabled: true, idleCollection: true } as SchedulerSettings, dispatcher);
    collector.onApplicationBootstrap();
  });
  afterEach(() => {
    collector.onModuleDestroy();
    delete global.gc;
  });

  it('collects a grown heap at the tail of the next burst, not when a release is near', async () => {
    let garbage: number[][] | null = allocate(overThreshold());
    const grown = v8.getHeapStatistics().used_heap_size;

    untilRelease = 50; // an instant 50 ms away: never a full collection now
    await sleep(350);
    expect(collector.collections).toBe(0);
    expect(tailListeners).toHaveLength(0);

    untilRelease = 800;
    await sleep(250);
    expect(tailListeners).toHaveLength(1); // waiting for a burst's tail
    expect(collector.collections).toBe(0);

    // Dropped only now, so that nothing but the collector has had a reason to collect it.
    expect(garbage.length).toBeGreaterThan(0);
    garbage = null;
    burstTail();
    await sleep(50);
    expect(collector.collections).toBe(1);
    expect(v8.getHeapStatistics().used_heap_size).toBeLessThan(grown - 64 * MB);
  });

  it('waits at a tail that comes too close to the next release for a later one', async () => {
    const growth = allocate(overThreshold());
    untilRelease = 800;
    await sleep(250);
    untilRelease = 100;
    burstTail();
    await sleep(50);
    expect(collector.collections).toBe(0);
    expect(tailListeners).toHaveLength(1);
    expect(growth.length).toBeGreaterThan(0);
  });

  it('collects without a burst once it has waited 5 s for one', async () => {
    const growth = allocate(overThreshold()); // kept reachable: the heap stays grown
    const started = performance.now();
    untilRelease = Infinity;
    // Polled, not slept: on a machine busy with other test files the collector's checks come late.
    await until(async () => collector.collections, (n) => n > 0, 30_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(collector.collections).toBe(1);
    expect(growth.length).toBeGreaterThan(0);
  });

  it('empties the young generation just before an instant', async () => {
    const youngUsed = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_used_size;
    let young: object[] | null = Array.from({ length: 50_000 }, (_, i) => ({ i }));
    young = null; // short-lived garbage, still in the young generation
    const before = youngUsed();
    expect(before).toBeGreaterThan(MB);
    untilRelease = 120; // the next check (within 100 ms) arms a scavenge 30 ms before the instant
    await sleep(200);
    expect(young).toBeNull();
    expect(youngUsed()).toBeLessThan(before / 4);
    expect(collector.collections).toBe(0); // a scavenge, not a full collection
  });

  it('does nothing when gc() is not exposed (node started without --expose-gc)', async () => {
    collector.onModuleDestroy();
    delete global.gc;
    const unexposed = new IdleCollector({ enabled: true, idleCollection: true } as SchedulerSettings, dispatcher);
    unexposed.onApplicationBootstrap();
    const growth = allocate(overThreshold());
    untilRelease = 800;
    await sleep(250);
    expect(tailListeners).toHaveLength(0);
    untilRelease = Infinity;
    await sleep(250);
    expect(unexposed.collections).toBe(0);
    expect(growth.length).toBeGreaterThan(0);
    unexposed.onModuleDestroy();
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
