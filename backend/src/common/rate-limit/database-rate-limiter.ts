import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { inKeyOrder, refusalOf, type RateLimitBucket, type RateLimiter, type TakenCount } from './rate-limit';
import { RateLimitWindowsRepository } from './rate-limit-windows.repository';

/** How often ended windows are deleted. */
const SWEEP_MS = 60_000;

/**
 * The rate limiter whose counts are kept in the database (`rate_limit_windows`),
 * so a limit holds across instances and restarts. A request is counted BEFORE
 * the work it pays for: one statement adds it to every bucket and answers the
 * new counts, and the work goes ahead only if none passed its limit, so of
 * any number of concurrent requests at most `limit` per bucket and window get
 * through. A refused take gives its counts back at once.
 */
@Injectable()
export class DatabaseRateLimiter implements RateLimiter, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(DatabaseRateLimiter.name);
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly windows: RateLimitWindowsRepository) {}

  async take(buckets: RateLimitBucket[]): Promise<TakenCount[]> {
    const ordered = inKeyOrder(unique(buckets));
    const counts = await this.windows.add(
      ordered.map((b) => b.key),
      ordered.map((b) => b.windowSeconds),
    );
    const taken = counts.map((c) => ({ key: c.key, window: c.windowStartedAt }));
    const refusal = refusalOf(buckets, counts);
    if (refusal) {
      await this.giveBack(taken);
      throw refusal;
    }
    return taken;
  }

  async giveBack(taken: TakenCount[]): Promise<void> {
    if (taken.length === 0) return;
    const ordered = inKeyOrder(taken);
    await this.windows.subtract(
      ordered.map((t) => t.key),
      ordered.map((t) => t.window),
    );
  }

  async assertNotFull(buckets: RateLimitBucket[]): Promise<void> {
    const counts = new Map((await this.windows.current(buckets.map((b) => b.key))).map((c) => [c.key, c]));
    // Full means no further request fits: at the limit already.
    const full = buckets.filter((b) => (counts.get(b.key)?.count ?? 0) >= b.limit);
    if (full.length > 0) throw refusalOf(full, full.map((b) => ({ ...counts.get(b.key)!, count: b.limit + 1 })))!;
  }

  async clear(key: string): Promise<void> {
    await this.windows.delete(key);
  }

  onModuleInit(): void {
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  private async sweep(): Promise<void> {
    await this.windows.deleteEnded().catch((err: unknown) => this.logger.warn({ err }, 'Could not sweep ended rate-limit windows'));
  }
}

/** One bucket per key (a statement may change a row once). */
function unique(buckets: RateLimitBucket[]): RateLimitBucket[] {
  return [...new Map(buckets.map((b) => [b.key, b])).values()];
}
