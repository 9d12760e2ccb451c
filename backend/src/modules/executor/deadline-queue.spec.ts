import fc from 'fast-check';
import { DeadlineQueue } from './deadline-queue';

/**
 * A callback for deadlines and a promise that settles once it has been
 * called `times` times: tests wait for the deadlines themselves, however
 * slow the machine (jest's timeout bounds the wait), instead of sleeping.
 */
function countdown(times: number): { done: Promise<void>; tick: () => void } {
  let tick!: () => void;
  const done = new Promise<void>((resolve) => {
    let left = times;
    tick = () => {
      if (--left === 0) resolve();
    };
  });
  return { done, tick };
}

describe('DeadlineQueue', () => {
  let queue: DeadlineQueue;
  beforeEach(() => (queue = new DeadlineQueue()));
  afterEach(() => queue.clear());

  it('fires each deadline once, in order, not before its time', async () => {
    const fired: Array<{ name: string; late: number }> = [];
    const all = countdown(3);
    const start = performance.now();
    for (const [name, after] of [['a', 20], ['b', 40], ['c', 40]] as const) {
      const at = start + after;
      queue.add(at, () => {
        fired.push({ name, late: performance.now() - at });
        all.tick();
      });
    }
    await all.done;
    expect(fired.map((f) => f.name)).toEqual(['a', 'b', 'c']);
    for (const f of fired) expect(f.late).toBeGreaterThanOrEqual(-1); // timers round to whole milliseconds
    expect(queue.size).toBe(0);
  });

  it('never fires a cancelled deadline', async () => {
    const fired: string[] = [];
    const kept = countdown(1);
    const now = performance.now();
    queue.add(now + 15, () => fired.push('cancelled')).cancel();
    queue.add(now + 30, () => {
      fired.push('kept');
      kept.tick();
    });
    // The kept one comes after the cancelled one's time, so by then that one has come up and been dropped.
    await kept.done;
    expect(fired).toEqual(['kept']);
    expect(queue.size).toBe(0);
  });

  it('re-arms for an earlier deadline added after a later one', async () => {
    const fired: Array<{ name: string; at: number }> = [];
    const both = countdown(2);
    const record = (name: string) => () => {
      fired.push({ name, at: performance.now() });
      both.tick();
    };
    const now = performance.now();
    const lateAt = now + 2_000;
    queue.add(lateAt, record('late'));
    queue.add(now + 10, record('early'));
    await both.done;
    expect(fired.map((f) => f.name)).toEqual(['early', 'late']);
    // Without re-arming, the early one would wait for the timer set for the late one (a timer may fire a
    // millisecond before its time, so "before lateAt" would not tell): it must come long before.
    expect(fired[0].at).toBeLessThan(now + 1_000);
  });

  it('stays bounded over many completed deadlines', async () => {
    let fired = 0;
    const live = countdown(1);
    const now = performance.now();
    for (let i = 0; i < 5_000; i++) queue.add(now + 1 + i / 1000, () => fired++).cancel();
    queue.add(now + 10, () => {
      fired++;
      live.tick();
    });
    await live.done;
    expect(fired).toBe(1);
    expect(queue.size).toBe(0);
  });

  it('fires deadlines added in any order by time (the same time: first added first), each once, and never a cancelled one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ offset: fc.integer({ min: 0, max: 5_000 }), cancelled: fc.boolean() }), { maxLength: 300 }), async (deadlines) => {
        const q = new DeadlineQueue();
        // All in the past: the first timer (0 ms) finds every one due and fires them in one pass, in time order.
        const base = performance.now() - 10_000;
        const fired: number[] = [];
        deadlines.forEach((d, i) => {
          const deadline = q.add(base + d.offset, () => fired.push(i));
          if (d.cancelled) deadline.cancel();
        });
        // One more, after all of them: deadlines fire in time order, so when it has, every other one came up.
        const last = countdown(1);
        q.add(base + 5_001, last.tick);
        await last.done;
        expect(q.size).toBe(0);
        // A stable sort: equal times keep the order they were added in.
        const expected = deadlines
          .map((d, i) => ({ ...d, i }))
          .filter((d) => !d.cancelled)
          .sort((a, b) => a.offset - b.offset)
          .map((d) => d.i);
        expect(fired).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
