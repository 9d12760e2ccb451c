import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import * as v8 from 'node:v8';
import { RunDispatcher } from './run-dispatcher';
import { SchedulerSettings } from './scheduler-settings';

type CollectGarbage = (options?: { type: 'major' | 'minor' }) => void;

/** How often the collector looks at the heap and the dispatcher. */
const CHECK_INTERVAL_MS = 100;
/** A collection runs only when no release is due this soon (a full collection of the service's heap takes 30-60 ms). */
const MIN_QUIET_MS = 300;
/**
 * Heap growth since the last collection that is worth collecting: this much
 * at least (about 18 s of the steady benchmark's garbage; each collection
 * slows the next release or two, each MB costs resident memory)...
 */
const MIN_GROWTH_BYTES = 88 * 1024 * 1024;
/** ...and this share of what survived it, so a large heap is collected proportionally less often. */
const GROWTH_SHARE = 0.5;
/**
 * The V8 flags the service is started with so that this collector, not V8,
 * decides when full collections run (`npm start` and the benchmark pass them;
 * see docs/adr/0004). V8's own trigger (by default about 20% above the live
 * heap) is raised above the collector's, and its memory reducer, which starts
 * full collections whenever allocation slows down (right after a burst), is
 * off. The collector never changes V8 flags itself.
 */
export const SCHEDULER_NODE_FLAGS = ['--expose-gc', '--heap-growing-percent=300', '--no-memory-reducer'] as const;

/**
 * Collections that paused the thread longer than this, LONG_PAUSES_TO_STOP
 * times in a row, mean the heap is too large for one pause to pass unnoticed;
 * the collector then stops and leaves the heap to V8's incremental marking
 * (at the raised trigger the process was started with, so memory grows: it
 * says so in a warning). A single long pause is a busy machine, not a big heap.
 */
const MAX_PAUSE_MS = 100;
const LONG_PAUSES_TO_STOP = 3;
/**
 * A collection waits this long for the tail of a burst: with the burst's last
 * requests in flight, more of the objects hot code was specialised on are
 * alive and V8 keeps more of that code. Without a burst it collects anyway.
 */
const TAIL_WAIT_MS = 5_000;
/** The young generation is emptied this long before an instant, so the release starts without a scavenge pending. */
const MINOR_LEAD_MS = 30;

/**
 * Decides when V8 runs a full garbage collection: rarely, and only in a gap
 * between instants. Two costs of a full collection fall on the releases:
 * - its pause (30-60 ms for this service's heap), when it happens to start
 *   at an instant;
 * - worse, the optimized code it throws away: a full collection clears the
 *   objects that hot functions (undici's, Node's timers, ours) were
 *   specialised on, so the next release runs on unoptimized code while V8
 *   recompiles. Measured: a burst of 1,000 requests takes about twice as long
 *   right after a full collection, and V8's own heuristic runs one every
 *   1-2 s at 1,000 executions a second.
 * So, with V8's trigger raised well above the live heap, the collector collects
 * itself once the heap has grown by MIN_GROWTH_BYTES (every ~18 s at that
 * rate), at the tail of a burst and never within MIN_QUIET_MS of an instant,
 * and empties the young generation (a cheap scavenge) just before each
 * instant. Browsers schedule collections in idle time the same way; Node does
 * not expose that, so the collector calls V8's gc(). It runs only when the
 * process was started with SCHEDULER_NODE_FLAGS (gc() exposed) and does
 * nothing otherwise (tests, `npm run dev`), leaving the heap to V8.
 */
@Injectable()
export class IdleCollector implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdleCollector.name);
  private timer: NodeJS.Timeout | null = null;
  private minorTimer: NodeJS.Timeout | null = null;
  private collect: CollectGarbage | null = null;
  private liveAfterCollection = 0;
  /** When the collector started waiting for a burst's tail to collect at (0: not waiting). */
  private tailWaitSince = 0;
  /** Consecutive collections that paused longer than MAX_PAUSE_MS. */
  private longPauses = 0;
  /** Full collections run by this collector so far. */
  collections = 0;

  constructor(
    private readonly settings: SchedulerSettings,
    private readonly dispatcher: RunDispatcher,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.enabled || !this.settings.idleCollection) return;
    const gc = (globalThis as { gc?: CollectGarbage }).gc;
    if (typeof gc !== 'function') {
      this.logger.log(`Node was started without ${SCHEDULER_NODE_FLAGS.join(' ')}: garbage collection is left to V8`);
      return;
    }
    this.collect = gc;
    // With V8's trigger raised from the process's start, the start-up garbage (modules, Nest's set-up) is
    // still on the heap: collect it once, before the first instant, so growth is measured from live data.
    gc();
    this.liveAfterCollection = v8.getHeapStatistics().used_heap_size;
    this.timer = setInterval(() => this.check(), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stop();
  }

  private collectAtTail(): void {
    if (this.tailWaitSince === 0 || !this.timer) return; // collected meanwhile, or stopped
    if (this.dispatcher.msUntilNextRelease() >= MIN_QUIET_MS) this.collectNow();
    else this.dispatcher.onBurstTail(() => setImmediate(() => this.collectAtTail()));
  }

  private collectNow(): void {
    const started = performance.now();
    this.collect!();
    const pause = performance.now() - started;
    this.collections++;
    this.tailWaitSince = 0;
    this.liveAfterCollection = v8.getHeapStatistics().used_heap_size;
    this.longPauses = pause > MAX_PAUSE_MS ? this.longPauses + 1 : 0;
    if (this.longPauses === LONG_PAUSES_TO_STOP) {
      this.logger.warn(`${LONG_PAUSES_TO_STOP} full collections in a row took over ${MAX_PAUSE_MS} ms (the last ${Math.round(pause)} ms); collections are left to V8 from now on`);
      this.stop();
    }
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.minorTimer) clearTimeout(this.minorTimer);
    this.timer = null;
    this.minorTimer = null;
  }

  private check(): void {
    const untilRelease = this.dispatcher.msUntilNextRelease();
    if (untilRelease >= MIN_QUIET_MS) {
      const grown = v8.getHeapStatistics().used_heap_size - this.liveAfterCollection;
      const worth = Math.max(MIN_GROWTH_BYTES, this.liveAfterCollection * GROWTH_SHARE);
      if (grown < worth) {
        this.tailWaitSince = 0; // a tail still awaited finds nothing to do
        return;
      }
      if (this.tailWaitSince === 0) {
        // Best at the tail of the next burst (see TAIL_WAIT_MS).
        this.tailWaitSince = performance.now();
        this.dispatcher.onBurstTail(() => setImmediate(() => this.collectAtTail()));
      } else if (performance.now() - this.tailWaitSince > TAIL_WAIT_MS) {
        this.collectNow(); // no burst came: nothing to keep compiled either
      }
    } else if (untilRelease > MINOR_LEAD_MS && untilRelease <= MINOR_LEAD_MS + CHECK_INTERVAL_MS && !this.minorTimer) {
      // An instant falls before the next check: empty the young generation just ahead of it.
      this.minorTimer = setTimeout(() => {
        this.minorTimer = null;
        if (this.dispatcher.msUntilNextRelease() > MINOR_LEAD_MS / 3) this.collect!({ type: 'minor' });
      }, untilRelease - MINOR_LEAD_MS);
      this.minorTimer.unref();
    }
  }
}
