import type { Deadline, DeadlineQueue } from './deadline-queue';

/**
 * An origin whose connections all stayed busy this long, with no answer
 * freeing one while requests waited, is slow: it gets more connections.
 */
export const SLOW_ORIGIN_MS = 1_000;
/** While requests wait, the gate looks at their origins this often. */
const TICK_MS = SLOW_ORIGIN_MS / 4;

export interface ConnectionGateLimits {
  /** Connections per origin while its answers come (the pool's size that is fastest for fast targets). */
  perOrigin: number;
  /** Connections per origin at most, however slow it is. */
  maxPerOrigin: number;
}

/** One waiting request; `grant(false)` when its wait budget ran out or the gate closed. */
interface Waiter {
  grant: (granted: boolean) => void;
  owner: OwnerState;
  expiry: Deadline | null;
}

interface OwnerState {
  key: string;
  inFlight: number;
  /** This owner's waiting requests, oldest first. */
  waiting: Waiter[];
}

interface OriginState {
  key: string;
  inFlight: number;
  /** Connections allowed now: `perOrigin`, doubled each time the origin proved slow, up to `maxPerOrigin`. */
  limit: number;
  /** performance.now() when a request to this origin last finished (or the limit last grew). */
  lastProgressAt: number;
  owners: Map<string, OwnerState>;
  /** Owners with waiting requests, in turn order: each gets one connection per round. */
  turns: OwnerState[];
}

/**
 * Admission to the connection pool, per origin and per owner (the user whose
 * job it is). A request is sent only once it holds a connection slot of its
 * origin, so its time limit starts when it goes on the wire, never while it
 * queues behind other requests; a request that waits longer than its budget
 * is reported as not sent.
 *
 * - An origin starts at `perOrigin` slots. When all are busy and none freed
 *   for SLOW_ORIGIN_MS while requests wait, the origin is slow (requests wait
 *   on its answers, not on its connection handshakes), and its limit doubles,
 *   up to `maxPerOrigin`. Once nothing waits, it shrinks back to what is in use.
 * - Fair share: an owner holding fewer than its share of the limit (the limit
 *   divided among the owners using the origin) gets a slot at once, even
 *   beyond the limit (up to `maxPerOrigin`), so another user's hung requests
 *   delay it only until the next slot frees or the limit grows. Waiting
 *   owners are served in turn, one slot each; nobody holds more than half
 *   of `maxPerOrigin`, so another owner always finds room.
 *
 * The path of a request that finds a free slot costs two map look-ups and a
 * few counters; the queues and the timer exist only while requests wait.
 */
export class ConnectionGate {
  private readonly origins = new Map<string, OriginState>();
  /** Origins with waiting requests, looked at by the tick. */
  private readonly congested = new Set<OriginState>();
  private tick: NodeJS.Timeout | null = null;
  private readonly perOrigin: number;
  private readonly maxPerOrigin: number;
  private readonly maxPerOwner: number;

  constructor(
    limits: ConnectionGateLimits,
    private readonly deadlines: DeadlineQueue,
  ) {
    this.perOrigin = limits.perOrigin;
    this.maxPerOrigin = Math.max(limits.maxPerOrigin, limits.perOrigin);
    this.maxPerOwner = Math.max(1, Math.floor(this.maxPerOrigin / 2));
  }

  /** Takes a slot of `origin` for `owner` if one is free now; a caller that got one must release() it. */
  tryTake(origin: string, owner: string): boolean {
    let state = this.origins.get(origin);
    if (!state) {
      state = { key: origin, inFlight: 0, limit: this.perOrigin, lastProgressAt: performance.now(), owners: new Map(), turns: [] };
      this.origins.set(origin, state);
    }
    let own = state.owners.get(owner);
    if (!own) {
      own = { key: owner, inFlight: 0, waiting: [] };
      state.owners.set(owner, own);
    }
    // Behind its own waiting requests: an owner's requests go out in the order they came.
    if (own.waiting.length > 0 || !this.mayTake(state, own)) return false;
    state.inFlight++;
    own.inFlight++;
    return true;
  }

  /**
   * Waits for a slot after tryTake() refused one: resolves true once the
   * slot is taken (release() it), false when none freed within `budgetMs`.
   */
  wait(origin: string, owner: string, budgetMs: number): Promise<boolean> {
    const state = this.origins.get(origin)!;
    const own = state.owners.get(owner)!;
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = { grant: resolve, owner: own, expiry: null };
      waiter.expiry = this.deadlines.add(performance.now() + budgetMs, () => this.giveUp(state, waiter));
      own.waiting.push(waiter);
      if (own.waiting.length === 1) state.turns.push(own);
      if (!this.congested.has(state)) {
        this.congested.add(state);
        this.arm();
      }
      this.growIfSlow(state, performance.now());
      this.serve(state);
    });
  }

  /** Gives back a slot taken by tryTake() or a granted wait(). */
  release(origin: string, owner: string): void {
    const state = this.origins.get(origin);
    if (!state) return;
    const own = state.owners.get(owner);
    state.inFlight--;
    state.lastProgressAt = performance.now();
    if (own) {
      own.inFlight--;
      if (own.inFlight === 0 && own.waiting.length === 0) state.owners.delete(owner);
    }
    if (state.turns.length > 0) this.serve(state);
    else if (state.inFlight === 0) this.origins.delete(origin);
    else if (state.limit > this.perOrigin) state.limit = Math.max(this.perOrigin, state.inFlight);
  }

  /** Slots in use and the current limit of an origin (for tests and diagnostics). */
  usage(origin: string): { inFlight: number; limit: number; waiting: number } {
    const state = this.origins.get(origin);
    if (!state) return { inFlight: 0, limit: this.perOrigin, waiting: 0 };
    let waiting = 0;
    for (const own of state.turns) waiting += own.waiting.length;
    return { inFlight: state.inFlight, limit: state.limit, waiting };
  }

  /** Refuses every waiting request (shutdown). */
  close(): void {
    if (this.tick) clearTimeout(this.tick);
    this.tick = null;
    for (const state of this.congested) {
      for (const own of state.turns) for (const waiter of own.waiting.splice(0)) this.settle(waiter, false);
      state.turns.length = 0;
    }
    this.congested.clear();
    this.origins.clear();
  }

  private mayTake(state: OriginState, own: OwnerState): boolean {
    if (own.inFlight >= this.maxPerOwner) return false;
    if (state.inFlight < state.limit) return true;
    // Over the limit only below the owner's fair share, and never over the hard cap.
    return state.inFlight < this.maxPerOrigin && own.inFlight < Math.floor(state.limit / state.owners.size);
  }

  /** Hands free slots to waiting owners, one each in turn, until none can take one. */
  private serve(state: OriginState): void {
    let refusedInARow = 0;
    while (state.turns.length > 0 && refusedInARow < state.turns.length) {
      const own = state.turns.shift()!;
      if (this.mayTake(state, own)) {
        refusedInARow = 0;
        const waiter = own.waiting.shift()!;
        state.inFlight++;
        own.inFlight++;
        this.settle(waiter, true);
      } else refusedInARow++;
      if (own.waiting.length > 0) state.turns.push(own);
    }
    if (state.turns.length === 0) this.congested.delete(state);
  }

  private growIfSlow(state: OriginState, now: number): void {
    if (state.limit >= this.maxPerOrigin || state.inFlight < state.limit || now - state.lastProgressAt < SLOW_ORIGIN_MS) return;
    state.limit = Math.min(this.maxPerOrigin, state.limit * 2);
    state.lastProgressAt = now;
  }

  private giveUp(state: OriginState, waiter: Waiter): void {
    const own = waiter.owner;
    const at = own.waiting.indexOf(waiter);
    if (at < 0) return;
    own.waiting.splice(at, 1);
    if (own.waiting.length === 0) {
      const turn = state.turns.indexOf(own);
      if (turn >= 0) state.turns.splice(turn, 1);
      if (own.inFlight === 0) state.owners.delete(own.key);
      if (state.turns.length === 0) {
        this.congested.delete(state);
        if (state.inFlight === 0) this.origins.delete(state.key);
      }
    }
    waiter.expiry = null;
    waiter.grant(false);
  }

  private settle(waiter: Waiter, granted: boolean): void {
    waiter.expiry?.cancel();
    waiter.expiry = null;
    waiter.grant(granted);
  }

  private arm(): void {
    if (this.tick) return;
    this.tick = setTimeout(() => {
      this.tick = null;
      const now = performance.now();
      for (const state of this.congested) {
        this.growIfSlow(state, now);
        this.serve(state);
      }
      if (this.congested.size > 0) this.arm();
    }, TICK_MS);
    this.tick.unref();
  }
}
