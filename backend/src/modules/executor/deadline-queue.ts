/** A registered deadline; cancel it when the work finished in time. */
export interface Deadline {
  cancel(): void;
}

interface Entry {
  at: number;
  /** Null once cancelled, so a finished request's closure is not kept until its deadline. */
  onExpire: (() => void) | null;
}

/**
 * Request deadlines on one timer. Most executions share the same timeout, so
 * deadlines nearly always arrive in order and a FIFO with lazy cancellation
 * is enough (the others, such as a job's shorter limit or a wait for a
 * connection, are inserted in order): a burst of ten thousand requests costs
 * one timer instead of ten thousand AbortSignal.timeout() timers and listeners.
 */
export class DeadlineQueue {
  private entries: Entry[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  private armedFor = Infinity;

  /** Calls `onExpire` at `at` (performance.now() time) unless cancelled first. */
  add(at: number, onExpire: () => void): Deadline {
    const entry: Entry = { at, onExpire };
    const last = this.entries[this.entries.length - 1];
    if (!last || last.at <= at) this.entries.push(entry);
    else this.insertSorted(entry);
    if (at < this.armedFor) this.arm(at);
    return { cancel: () => void (entry.onExpire = null) };
  }

  /** Stops the timer; pending deadlines never fire (shutdown). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
    this.entries = [];
    this.head = 0;
  }

  private insertSorted(entry: Entry): void {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid].at <= entry.at) lo = mid + 1;
      else hi = mid;
    }
    this.entries.splice(lo, 0, entry);
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(() => this.expire(), Math.max(0, Math.ceil(at - performance.now())));
    this.timer.unref();
  }

  private expire(): void {
    this.timer = null;
    this.armedFor = Infinity;
    const now = performance.now();
    while (this.head < this.entries.length && this.entries[this.head].at <= now) {
      this.entries[this.head++].onExpire?.();
    }
    // Compact once the consumed prefix dominates, so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    if (this.head < this.entries.length) this.arm(this.entries[this.head].at);
    else {
      this.entries = [];
      this.head = 0;
    }
  }
}
