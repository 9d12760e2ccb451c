/**
 * Promises a service started and nobody awaits (timer sweeps, alerts sent
 * after the answer): shutdown waits for them, so none of them queries a
 * database that has closed.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<unknown>>();

  /** Answers `work` itself: a caller that awaits it sees its result or its error. */
  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    // The bookkeeping chain must not raise an unhandled rejection of its own; the caller handles `work`.
    void work.finally(() => this.running.delete(work)).catch(() => undefined);
    return work;
  }

  /** Resolves once nothing is running, work started by work still running included. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
