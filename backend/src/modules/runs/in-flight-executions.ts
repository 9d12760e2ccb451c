import type { ExecutionResult } from '../executor/http-executor.service';

/** The log message of a run whose request was still unanswered when its instance stopped. */
export const INTERRUPTED_MESSAGE = 'Interrupted: the instance stopped before the target answered';

interface Running {
  startedAt: Date;
  started: number;
  settle: (result: ExecutionResult) => void;
}

/**
 * Executions whose request is on the wire, scheduled and manual alike, so
 * that a stop can wait for them and, past its budget, end the ones still
 * unanswered with an interrupted result. Each execution settles once: with
 * the target's answer or with the interruption, whichever comes first; the
 * other is ignored, so a run is recorded exactly once.
 */
export class InFlightExecutions {
  private readonly running = new Set<Running>();
  private idle: Array<() => void> = [];

  get size(): number {
    return this.running.size;
  }

  /** Answers the execution's result, or an interrupted one if `interrupt()` comes first. */
  track(execution: Promise<ExecutionResult>): Promise<ExecutionResult> {
    return new Promise<ExecutionResult>((resolve, reject) => {
      // Whichever ends the execution first (answer, error or interruption) takes it out; the later one is ignored.
      const takeOut = (): boolean => {
        if (!this.running.delete(entry)) return false;
        if (this.running.size === 0) this.notifyIdle();
        return true;
      };
      const entry: Running = {
        startedAt: new Date(),
        started: performance.now(),
        settle: (result) => {
          if (takeOut()) resolve(result);
        },
      };
      this.running.add(entry);
      execution.then(entry.settle, (error: unknown) => {
        if (takeOut()) reject(error);
      });
    });
  }

  /** Resolves once no execution is in flight. */
  whenIdle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Ends every execution still in flight with a failed, retryable result (the
   * target may or may not have acted, as after a timeout); answers how many.
   */
  interrupt(): number {
    const stragglers = [...this.running];
    const now = performance.now();
    for (const entry of stragglers) {
      entry.settle({
        success: false,
        startedAt: entry.startedAt,
        responseCode: null,
        durationMs: Math.round(now - entry.started),
        responseBody: null,
        errorMessage: INTERRUPTED_MESSAGE,
        retryable: true,
      });
    }
    return stragglers.length;
  }

  private notifyIdle(): void {
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
