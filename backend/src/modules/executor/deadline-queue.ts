/** A registered deadline; cancel it when the work finished in time. */
export interface Deadline {
  cancel(): void;
}

interface Entry {
  at: number;
  /** Order of registration: deadlines of the same time fire first come, first served. */
  seq: number;
  /** Null once cancelled, so a finished request's closure is not kept until its deadline. */
  onExpire: (() => void) | null;
}

const before = (a: Entry, b: Entry) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/**
 * Request deadlines on one timer: a burst of ten thousand requests costs one
 * timer instead of ten thousand AbortSignal.timeout() timers and listeners.
 * The deadlines wait in a binary min-heap by time, cancelled ones dropped when
 * they come up. Most executions share the same timeout, so deadlines mostly
 * come in order (a push then stops at once), but not all do: a job's shorter
 * limit, a wait for a connection. A sorted array took an O(n) insert for each
 * of those, which under a backlog of 150,000 pending deadlines (5,000
 * executions a second, 30 s timeouts) was a sixth of the process's time.
 */
export class DeadlineQueue {
  private heap: Entry[] = [];
  private added = 0;
  private timer: NodeJS.Timeout | null = null;
  private armedFor = Infinity;

  /** Deadlines not yet expired, cancelled ones included until their time comes (they hold no closure). */
  get size(): number {
    return this.heap.length;
  }

  /** Calls `onExpire` at `at` (performance.now() time) unless cancelled first. */
  add(at: number, onExpire: () => void): Deadline {
    const entry: Entry = { at, seq: this.added++, onExpire };
    this.push(entry);
    if (at < this.armedFor) this.arm(at);
    return { cancel: () => void (entry.onExpire = null) };
  }

  /** Stops the timer; pending deadlines never fire (shutdown). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
    this.heap = [];
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
    while (this.heap.length > 0 && this.heap[0].at <= now) this.pop().onExpire?.();
    if (this.heap.length > 0) this.arm(this.heap[0].at);
  }

  private push(entry: Entry): void {
    const heap = this.heap;
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (!before(entry, heap[parent])) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): Entry {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      // Sift the last entry down from the root.
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= heap.length) break;
        const child = left + 1 < heap.length && before(heap[left + 1], heap[left]) ? left + 1 : left;
        if (!before(heap[child], last)) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}
