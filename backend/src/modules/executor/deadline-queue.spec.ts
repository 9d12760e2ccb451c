import { DeadlineQueue } from './deadline-queue';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('DeadlineQueue', () => {
  let queue: DeadlineQueue;
  beforeEach(() => (queue = new DeadlineQueue()));
  afterEach(() => queue.clear());

  it('fires each deadline once, in order, not before its time', async () => {
    const fired: Array<{ name: string; late: number }> = [];
    const start = performance.now();
    for (const [name, after] of [['a', 20], ['b', 40], ['c', 40]] as const) {
      const at = start + after;
      queue.add(at, () => fired.push({ name, late: performance.now() - at }));
    }
    await sleep(80);
    expect(fired.map((f) => f.name)).toEqual(['a', 'b', 'c']);
    for (const f of fired) expect(f.late).toBeGreaterThanOrEqual(-1); // timers round to whole milliseconds
  });

  it('never fires a cancelled deadline', async () => {
    const fired: string[] = [];
    const now = performance.now();
    queue.add(now + 10, () => fired.push('kept'));
    queue.add(now + 15, () => fired.push('cancelled')).cancel();
    await sleep(40);
    expect(fired).toEqual(['kept']);
  });

  it('keeps an out-of-order deadline in its place and re-arms for an earlier one', async () => {
    const fired: string[] = [];
    const now = performance.now();
    queue.add(now + 60, () => fired.push('late'));
    queue.add(now + 10, () => fired.push('early'));
    await sleep(30);
    expect(fired).toEqual(['early']);
    await sleep(50);
    expect(fired).toEqual(['early', 'late']);
  });

  it('stays bounded over many completed deadlines', async () => {
    let fired = 0;
    const now = performance.now();
    for (let i = 0; i < 5_000; i++) queue.add(now + 1 + i / 1000, () => fired++).cancel();
    queue.add(now + 10, () => fired++);
    await sleep(30);
    expect(fired).toBe(1);
    expect((queue as unknown as { entries: unknown[] }).entries.length).toBe(0);
  });
});
