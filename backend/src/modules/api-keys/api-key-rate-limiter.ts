import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Fixed-window request counter per API key (PROG_RATE_LIMIT calls per
 * PROG_RATE_LIMIT_WINDOW_SECONDS). In memory: each instance counts its own
 * traffic, which bounds a key to limit × instances behind a load balancer.
 */
@Injectable()
export class ApiKeyRateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(config: AppConfig) {
    this.limit = config.env.PROG_RATE_LIMIT;
    this.windowMs = config.env.PROG_RATE_LIMIT_WINDOW_SECONDS * 1000;
  }

  /** Counts one call; answers the seconds to wait when the key is over its limit, else null. */
  consume(keyId: string, now = Date.now()): number | null {
    let window = this.windows.get(keyId);
    if (!window || now - window.startedAt >= this.windowMs) {
      this.pruneExpired(now);
      window = { startedAt: now, count: 0 };
      this.windows.set(keyId, window);
    }
    window.count += 1;
    return window.count > this.limit ? (window.startedAt + this.windowMs - now) / 1000 : null;
  }

  private pruneExpired(now: number): void {
    for (const [keyId, window] of this.windows) if (now - window.startedAt >= this.windowMs) this.windows.delete(keyId);
  }
}
