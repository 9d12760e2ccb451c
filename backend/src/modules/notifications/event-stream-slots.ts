import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';

/**
 * Event streams one account may hold open at once on an instance. Each is a
 * connection and a subscription held for hours; ten covers a user's tabs and
 * the desktop app, and stops one token (or a leaked one) from holding
 * thousands.
 */
export const EVENT_STREAMS_PER_USER = 10;
/** How long a client refused for the cap is asked to wait before it tries again. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Counts the open event streams per user. A stream past the cap is refused
 * (429) rather than closing an older one: closing would make the clients of
 * a user with too many tabs take each other's place in a reconnect loop.
 */
@Injectable()
export class EventStreamSlots {
  private readonly open = new Map<string, number>();

  /**
   * Takes a slot for `userId` or throws 429. Check and count happen in one
   * synchronous step, so concurrent opens cannot all pass the check. The
   * returned function gives the slot back (once, however often it is called).
   */
  take(userId: string): () => void {
    const count = this.open.get(userId) ?? 0;
    if (count >= EVENT_STREAMS_PER_USER) {
      throw ApiError.tooManyRequests(
        `Too many open event streams: an account may keep at most ${EVENT_STREAMS_PER_USER} open at once. Close another tab or window, then try again.`,
        RETRY_AFTER_SECONDS,
      );
    }
    this.open.set(userId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(userId) ?? 1) - 1;
      if (left > 0) this.open.set(userId, left);
      else this.open.delete(userId);
    };
  }
}
