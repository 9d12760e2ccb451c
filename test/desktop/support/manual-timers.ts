import type { Timers } from '../../../desktop/main/timers';

interface Scheduled {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * A clock the test moves by hand: timers fire only in `advance`, so refresh
 * and retry schedules are asserted exactly, however busy the machine is.
 */
export class ManualTimers implements Timers {
  private current = Date.now();
  private nextId = 1;
  private pending: Scheduled[] = [];

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.current + ms, fn };
    this.pending.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((t) => t.id !== handle);
  }

  /** Delays of the timers not yet fired. */
  get scheduled(): number[] {
    return this.pending.map((t) => t.at - this.current);
  }

  /** Moves the clock and fires every timer due by then, in order. */
  advance(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      const due = this.pending.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.pending = this.pending.filter((t) => t !== due);
      this.current = due.at;
      due.fn();
    }
    this.current = until;
  }
}

/** Polls `test` until it holds (real time), failing with `what` after the deadline. */
export async function eventually(test: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
