import { Injectable } from '@nestjs/common';

/** Test requests per user per window: enough for editing a form, too few to use Cronbeam as a free HTTP relay. */
export const TEST_RUNS_PER_WINDOW = 10;
export const TEST_RUN_WINDOW_MS = 60_000;

/** A per-user sliding window of test requests, in memory (a per-instance limit is enough for abuse control). */
@Injectable()
export class TestRunLimiter {
  private readonly recent = new Map<string, number[]>();

  /** Records a test request; answers 0 when allowed, else the seconds to wait. */
  take(userId: string, now = Date.now()): number {
    const times = (this.recent.get(userId) ?? []).filter((t) => now - t < TEST_RUN_WINDOW_MS);
    if (times.length >= TEST_RUNS_PER_WINDOW) {
      this.recent.set(userId, times);
      return Math.max(1, Math.ceil((times[0] + TEST_RUN_WINDOW_MS - now) / 1000));
    }
    times.push(now);
    this.recent.set(userId, times);
    return 0;
  }
}
