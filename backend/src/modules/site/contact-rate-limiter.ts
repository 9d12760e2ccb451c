/** Messages one address may send per window: enough for a person, useless for a spammer. */
export const CONTACT_MESSAGES_PER_WINDOW = 5;
export const CONTACT_WINDOW_MS = 60 * 60 * 1000;

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Fixed-window counter of contact messages per client address, in memory:
 * each instance counts its own traffic, which still bounds the mail a single
 * address can make the service send.
 */
export class ContactRateLimiter {
  private readonly windows = new Map<string, Window>();

  /** Counts one message; answers the seconds to wait when the address is over its limit, else null. */
  consume(address: string, now = Date.now()): number | null {
    let window = this.windows.get(address);
    if (!window || now - window.startedAt >= CONTACT_WINDOW_MS) {
      for (const [key, w] of this.windows) if (now - w.startedAt >= CONTACT_WINDOW_MS) this.windows.delete(key);
      window = { startedAt: now, count: 0 };
      this.windows.set(address, window);
    }
    window.count += 1;
    return window.count > CONTACT_MESSAGES_PER_WINDOW ? (window.startedAt + CONTACT_WINDOW_MS - now) / 1000 : null;
  }
}
