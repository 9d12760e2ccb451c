import { ConnectionGate, SLOW_ORIGIN_MS } from './connection-gate';
import { DeadlineQueue } from './deadline-queue';

const ORIGIN = 'http://slow.example';

describe('ConnectionGate', () => {
  let deadlines: DeadlineQueue;
  let gate: ConnectionGate;

  beforeEach(() => {
    jest.useFakeTimers();
    deadlines = new DeadlineQueue();
    gate = new ConnectionGate({ perOrigin: 4, maxPerOrigin: 16 }, deadlines);
  });
  afterEach(() => {
    gate.close();
    deadlines.clear();
    jest.useRealTimers();
  });

  /** Takes a slot at once if free, else waits for one; answers whether it got one. */
  function take(owner: string, budgetMs = 10_000): { granted: boolean | null; done: Promise<boolean> } {
    const entry: { granted: boolean | null; done: Promise<boolean> } = { granted: null, done: Promise.resolve(true) };
    if (gate.tryTake(ORIGIN, owner)) entry.granted = true;
    else entry.done = gate.wait(ORIGIN, owner, budgetMs).then((g) => (entry.granted = g));
    return entry;
  }
  const settled = () => jest.advanceTimersByTimeAsync(0);

  it('lets requests through up to the per-origin limit, then queues them until a slot frees', async () => {
    const first = Array.from({ length: 4 }, () => take('alice'));
    expect(first.every((e) => e.granted)).toBe(true);
    const fifth = take('alice');
    await settled();
    expect(fifth.granted).toBeNull();
    gate.release(ORIGIN, 'alice');
    await settled();
    expect(fifth.granted).toBe(true);
    expect(gate.usage(ORIGIN)).toEqual({ inFlight: 4, limit: 4, waiting: 0 });
  });

  it('refuses a waiting request whose budget ran out, and forgets the origin once idle', async () => {
    for (let i = 0; i < 4; i++) take('alice');
    const late = take('alice', 300);
    await jest.advanceTimersByTimeAsync(299);
    expect(late.granted).toBeNull();
    await jest.advanceTimersByTimeAsync(2);
    expect(late.granted).toBe(false);
    for (let i = 0; i < 4; i++) gate.release(ORIGIN, 'alice');
    expect(gate.usage(ORIGIN)).toEqual({ inFlight: 0, limit: 4, waiting: 0 });
  });

  it('doubles the limit of an origin that answered nothing for a while, up to half the cap for one user', async () => {
    const all = Array.from({ length: 12 }, () => take('alice'));
    expect(all.filter((e) => e.granted).length).toBe(4);
    await jest.advanceTimersByTimeAsync(SLOW_ORIGIN_MS + 300);
    expect(gate.usage(ORIGIN).limit).toBe(8);
    expect(all.filter((e) => e.granted).length).toBe(8);
    await jest.advanceTimersByTimeAsync(SLOW_ORIGIN_MS + 300);
    expect(gate.usage(ORIGIN).limit).toBe(16);
    // One user holds at most half of the 16: the rest wait for their own requests' answers.
    expect(all.filter((e) => e.granted).length).toBe(8);
    expect(gate.usage(ORIGIN).waiting).toBe(4);
  });

  it('does not grow the limit of an origin that keeps answering', async () => {
    for (let i = 0; i < 4; i++) take('alice');
    const queued = Array.from({ length: 40 }, () => take('alice'));
    for (let t = 0; t < 4 * SLOW_ORIGIN_MS; t += SLOW_ORIGIN_MS / 2) {
      await jest.advanceTimersByTimeAsync(SLOW_ORIGIN_MS / 2);
      gate.release(ORIGIN, 'alice'); // an answer every half a slow period
    }
    await settled();
    expect(gate.usage(ORIGIN).limit).toBe(4);
    expect(queued.filter((e) => e.granted).length).toBe(8);
  });

  it("gives another user its fair share at once while one user's requests hang", async () => {
    const alice = Array.from({ length: 20 }, () => take('alice'));
    expect(alice.filter((e) => e.granted).length).toBe(4);
    const bob = Array.from({ length: 3 }, () => take('bob'));
    // Two users on a limit of 4: bob's share is 2, taken at once beyond the limit.
    expect(bob.filter((e) => e.granted).length).toBe(2);
    await settled();
    expect(bob[2].granted).toBeNull();
    // Six in flight on a limit of 4: the next slots free when two answers came. They go to the waiting users
    // in turn, one each, so bob's third request does not wait behind alice's sixteen.
    for (let i = 0; i < 3; i++) gate.release(ORIGIN, 'alice');
    await settled();
    expect(bob[2].granted).toBeNull();
    expect(alice.filter((e) => e.granted).length).toBe(5);
    gate.release(ORIGIN, 'alice');
    await settled();
    expect(bob[2].granted).toBe(true);
    // Alice, now below her share of 2, takes one more beyond the limit: each user holds its share.
    expect(gate.usage(ORIGIN)).toEqual({ inFlight: 5, limit: 4, waiting: 14 });
  });

  it('refuses every waiting request when closed', async () => {
    for (let i = 0; i < 4; i++) take('alice');
    const waiting = take('alice');
    gate.close();
    await settled();
    expect(waiting.granted).toBe(false);
  });
});
