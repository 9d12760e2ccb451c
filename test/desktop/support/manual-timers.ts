import type { Timers } from '../../../desktop/main/timers';

interface Scheduled {
  id: number;
  at: number;
  delay: number;
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
  /** Every delay ever asked for, in order. */
  readonly delays: number[] = [];

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.current + ms, delay: ms, fn };
    this.pending.push(timer);
    this.delays.push(ms);
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

  /** Fires the next pending timer, however far ahead. */
  fireNext(): number | null {
    const next = [...this.pending].sort((a, b) => a.at - b.at)[0];
    if (!next) return null;
    const delay = next.at - this.current;
    this.advance(delay);
    return delay;
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
