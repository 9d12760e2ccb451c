/** The general retry policy: 4 attempts, waiting 1 s and doubling between them. */
export const RETRY_DEFAULTS = { attempts: 4, initialDelayMs: 1000 } as const;

export interface RetryOptions {
  attempts?: number;
  initialDelayMs?: number;
  /** Whether a failure is worth another attempt; by default every failure is. */
  shouldRetry?: (error: unknown) => boolean;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `task` until it succeeds or the attempts are used up; the last error is rethrown. */
export async function withRetry<T>(task: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? RETRY_DEFAULTS.attempts;
  const sleep = options.sleep ?? realSleep;
  let delay = options.initialDelayMs ?? RETRY_DEFAULTS.initialDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= attempts || (options.shouldRetry && !options.shouldRetry(error))) throw error;
      await sleep(delay);
      delay *= 2;
    }
  }
}
