import { Injectable } from '@nestjs/common';

/** Pings per token (or per address, for unknown tokens) per window: far above any real schedule, low enough to make flooding cheap to refuse. */
export const PINGS_PER_WINDOW = 30;
export const PING_WINDOW_MS = 60_000;
const MAX_KEYS = 100_000;

/** A fixed window of pings per key, in memory (per instance; a ping needs no stronger limit). */
@Injectable()
export class PingLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  /** Tokens that pinged successfully lately: an address slowed down for guessing still reaches these. */
  private readonly known = new Set<string>();

  remember(token: string): void {
    if (this.known.has(token)) return;
    if (this.known.size >= MAX_KEYS) this.known.clear();
    this.known.add(token);
  }

  isKnown(token: string): boolean {
    return this.known.has(token);
  }

  /** Records a ping; answers 0 when allowed, else the seconds to wait. */
  take(key: string, now = Date.now()): number {
    let window = this.windows.get(key);
    if (!window || now - window.start >= PING_WINDOW_MS) {
      if (this.windows.size >= MAX_KEYS) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count > PINGS_PER_WINDOW ? Math.max(1, Math.ceil((window.start + PING_WINDOW_MS - now) / 1000)) : 0;
  }

  /** Undoes one take() of the current window (a ping that turned out not to count). */
  giveBack(key: string): void {
    const window = this.windows.get(key);
    if (window && window.count > 0) window.count--;
  }
}
