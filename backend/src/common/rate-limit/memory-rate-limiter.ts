import { Injectable } from '@nestjs/common';
import { refusalOf, type RateLimitBucket, type RateLimiter, type TakenCount } from './rate-limit';

/** Buckets kept at most: past it every window is forgotten at once, which keeps a count one Map lookup. */
const MAX_BUCKETS = 100_000;

interface Window {
  startedAt: number;
  count: number;
}

/**
 * The rate limiter whose counts live in this process: each instance counts
 * its own traffic, so behind a load balancer a bucket lets through up to
 * `limit` per instance. For limits on hot paths that shed load rather than
 * bound a cost (docs/adr/0137-one-rate-limiter.md). Same convention as
 * DatabaseRateLimiter; being in memory, a take is atomic by itself.
 */
@Injectable()
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  take(buckets: RateLimitBucket[]): Promise<TakenCount[]> {
    const now = this.now();
    const counted = buckets.map((b) => ({ bucket: b, window: this.open(b, now) }));
    for (const { window } of counted) window.count++;
    const refusal = refusalOf(
      buckets,
      counted.map(({ bucket, window }) => ({ key: bucket.key, count: window.count, retryAfterSeconds: (window.startedAt + bucket.windowSeconds * 1000 - now) / 1000 })),
    );
    const taken = counted.map(({ bucket, window }) => ({ key: bucket.key, window: String(window.startedAt) }));
    if (refusal) {
      this.giveBackNow(taken);
      return Promise.reject(refusal);
    }
    return Promise.resolve(taken);
  }

  giveBack(taken: TakenCount[]): Promise<void> {
    this.giveBackNow(taken);
    return Promise.resolve();
  }

  assertNotFull(buckets: RateLimitBucket[]): Promise<void> {
    const now = this.now();
    const full = buckets.filter((b) => this.current(b, now) >= b.limit);
    if (full.length === 0) return Promise.resolve();
    return Promise.reject(
      refusalOf(
        full,
        full.map((b) => ({ key: b.key, count: b.limit + 1, retryAfterSeconds: (this.windows.get(b.key)!.startedAt + b.windowSeconds * 1000 - now) / 1000 })),
      ),
    );
  }

  clear(key: string): Promise<void> {
    this.windows.delete(key);
    return Promise.resolve();
  }

  /** The bucket's window at `now`, a fresh one when the last has ended. */
  private open(bucket: RateLimitBucket, now: number): Window {
    let window = this.windows.get(bucket.key);
    if (!window || now - window.startedAt >= bucket.windowSeconds * 1000) {
      if (!window && this.windows.size >= MAX_BUCKETS) this.windows.clear();
      window = { startedAt: now, count: 0 };
      this.windows.set(bucket.key, window);
    }
    return window;
  }

  private current(bucket: RateLimitBucket, now: number): number {
    const window = this.windows.get(bucket.key);
    return window && now - window.startedAt < bucket.windowSeconds * 1000 ? window.count : 0;
  }

  private giveBackNow(taken: TakenCount[]): void {
    for (const t of taken) {
      const window = this.windows.get(t.key);
      if (window && String(window.startedAt) === t.window && window.count > 0) window.count--;
    }
  }
}
