import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { RunDispatcher } from './run-dispatcher';
import { SchedulerSettings } from './scheduler-settings';

type CollectGarbage = (options?: { type: 'major' | 'minor' }) => void;

/** How often the collector looks at the heap and the dispatcher. */
const CHECK_INTERVAL_MS = 100;
/** A collection runs only when no release is due this soon (a full collection of the service's heap takes 30-60 ms). */
const MIN_QUIET_MS = 300;
/**
 * Heap growth since the last collection that is worth collecting: this much
 * at least (V8 starts its own marking about 10 MB above the service's live
 * heap, and the collector must come first)...
 */
const MIN_GROWTH_BYTES = 6 * 1024 * 1024;
/** ...and this share of what survived it, so a large heap is collected proportionally less often. */
const GROWTH_SHARE = 0.12;
/**
 * A collection that paused the thread longer than this means the heap is too
 * large for one pause to pass unnoticed (a test runner hosting the service,
 * say); the collector then stops and leaves the heap to V8's incremental marking.
 */
const MAX_PAUSE_MS = 100;
/** The young generation is emptied this long before an instant, so the release starts without a scavenge pending. */
const MINOR_LEAD_MS = 30;

/**
 * Runs V8's full garbage collection while the dispatcher is idle, so that V8
 * does not start one of its own in the middle of a release. A full collection
 * stops the main thread for 30-60 ms here; left to V8 it falls wherever the
 * heap happens to reach its limit, and at 1,000 due per second that is often
 * an instant, making a whole second's requests late. Collecting as soon as
 * the heap has grown a little, in the gaps between instants, keeps it far
 * from V8's own trigger (and the resident size down). This is what browsers
 * do with idle-time collection; Node does not expose that, so the collector
 * uses `gc()` (available without --expose-gc, see exposeGc).
 */
@Injectable()
export class IdleCollector implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdleCollector.name);
  private timer: NodeJS.Timeout | null = null;
  private minorTimer: NodeJS.Timeout | null = null;
  private collect: CollectGarbage | null = null;
  private liveAfterCollection = 0;
  /** Full collections run by this collector so far. */
  collections = 0;

  constructor(
    private readonly settings: SchedulerSettings,
    private readonly dispatcher: RunDispatcher,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.enabled || !this.settings.idleCollection) return;
    this.collect = exposeGc();
    if (!this.collect) {
      this.logger.warn('V8 garbage collection could not be exposed; collections are left to V8');
      return;
    }
    this.liveAfterCollection = v8.getHeapStatistics().used_heap_size;
    this.timer = setInterval(() => this.check(), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.minorTimer) clearTimeout(this.minorTimer);
    this.timer = null;
    this.minorTimer = null;
  }

  private check(): void {
    const quiet = this.dispatcher.quietForMs();
    if (quiet >= MIN_QUIET_MS) {
      const used = v8.getHeapStatistics().used_heap_size;
      const worth = Math.max(MIN_GROWTH_BYTES, this.liveAfterCollection * GROWTH_SHARE);
      if (used - this.liveAfterCollection >= worth) {
        const started = performance.now();
        this.collect!();
        const pause = performance.now() - started;
        this.collections++;
        this.liveAfterCollection = v8.getHeapStatistics().used_heap_size;
        if (pause > MAX_PAUSE_MS) {
          this.logger.log(`A full collection took ${Math.round(pause)} ms; collections are left to V8 from now on`);
          this.onModuleDestroy();
        }
      }
    } else if (quiet > MINOR_LEAD_MS && quiet <= MINOR_LEAD_MS + CHECK_INTERVAL_MS && !this.minorTimer) {
      // An instant falls before the next check: empty the young generation just ahead of it.
      this.minorTimer = setTimeout(() => {
        this.minorTimer = null;
        if (this.dispatcher.quietForMs() > MINOR_LEAD_MS / 3) this.collect!({ type: 'minor' });
      }, quiet - MINOR_LEAD_MS);
      this.minorTimer.unref();
    }
  }
}

/**
 * V8's gc() function: the global one when Node was started with --expose-gc,
 * otherwise obtained by turning the flag on and reading it from a new context
 * (the flag only affects contexts created after it is set).
 */
function exposeGc(): CollectGarbage | null {
  const global = globalThis as { gc?: CollectGarbage };
  if (typeof global.gc === 'function') return global.gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as CollectGarbage) : null;
  } catch {
    return null;
  }
}
