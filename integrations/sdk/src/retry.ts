export interface RetryOptions {
  /** Further attempts after a 429 or 503; 0 turns retrying off. Default 3. */
  maxRetries?: number;
  /** Longest single wait; an answer asking for more is returned as the error it is. Default 30 000 ms. */
  maxDelayMs?: number;
}

/** Statuses that mean "not now, the same request may succeed later". */
const RETRIED_STATUSES = new Set([429, 503]);
const FIRST_BACKOFF_MS = 500;

/** Retry-After as milliseconds: whole seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Wraps fetch so that 429 and 503 answers are retried after the wait the
 * server asks for (Retry-After), or after a doubling backoff when it names
 * none. The last answer is returned as is, so the caller sees its status.
 */
export function retryingFetch(base: typeof fetch, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  return async (request: Request) => {
    for (let attempt = 0; ; attempt++) {
      // A Request's body can be read once: each attempt sends a copy.
      const response = await base(attempt < maxRetries ? request.clone() : request);
      if (!RETRIED_STATUSES.has(response.status) || attempt >= maxRetries) return response;
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? FIRST_BACKOFF_MS * 2 ** attempt;
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
