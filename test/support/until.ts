/**
 * Reads until `ok` holds and answers that value; past `timeoutMs` it fails
 * with the last value read. For state another process or instance changes
 * in its own time (a row, a log line), so no test sleeps a fixed time.
 */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
