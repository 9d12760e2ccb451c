import { ApiError, type ErrorDetail } from '../http/api-error';

/** A counter of requests under `key`: at most `limit` per fixed window of `windowSeconds`. */
export interface RateLimitBucket {
  key: string;
  limit: number;
  windowSeconds: number;
  /** The 429's detail when this bucket is the one that is full. */
  message: ErrorDetail;
}

/** One request counted in a bucket's window; giving it back takes it from that window only (a later window keeps its count). */
export interface TakenCount {
  key: string;
  /** Which window it was counted in, as the limiter's store names it. */
  window: string;
}

/**
 * The one rate-limiting convention of the service: `take` counts one request
 * in every bucket, all or none, and either answers the counts taken (to give
 * back when the request turns out not to count) or throws the 429 (with
 * Retry-After) of the first full bucket; `assertNotFull` refuses the same way
 * without counting. Buckets are fixed windows. Two stores keep them:
 * `DatabaseRateLimiter`, whose counts hold across instances and restarts, and
 * `MemoryRateLimiter`, which counts per instance (see docs/adr/0137-one-rate-limiter.md
 * for which limit uses which).
 */
export interface RateLimiter {
  take(buckets: RateLimitBucket[]): Promise<TakenCount[]>;
  giveBack(taken: TakenCount[]): Promise<void>;
  assertNotFull(buckets: RateLimitBucket[]): Promise<void>;
  /** Forgets the bucket's count (a success that proves the caller was not guessing). */
  clear(key: string): Promise<void>;
}

/** A bucket's count after a take, with the seconds left in its window. */
export interface CountedBucket {
  key: string;
  count: number;
  retryAfterSeconds: number;
}

/** The 429 for the counts just taken, or null when every bucket is within its limit: the first full bucket's message, and the longest wait of the full ones. */
export function refusalOf(buckets: RateLimitBucket[], counts: CountedBucket[]): ApiError | null {
  const byKey = new Map(counts.map((c) => [c.key, c]));
  const full = buckets.filter((b) => byKey.get(b.key)!.count > b.limit);
  if (full.length === 0) return null;
  return ApiError.tooManyRequests(full[0]!.message, Math.max(...full.map((b) => byKey.get(b.key)!.retryAfterSeconds)));
}

/** Buckets in one fixed order (by code unit, the same on every instance): two takes over the same buckets lock their rows in the same order. */
export function inKeyOrder<T extends { key: string }>(buckets: T[]): T[] {
  return [...buckets].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
