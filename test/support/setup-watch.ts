import { describeLiveDatabases } from './test-database';
import type { TestServer } from './test-server';

/**
 * Names what a suite's set-up is waiting for. Each step is awaited through
 * step(); once the whole set-up has taken `budgetMs` (keep it below the hook's
 * timeout), the step being awaited fails with its name, how long each step
 * took, what every database of this test file is doing (on the embedded one:
 * who holds its single session and who waits for it) and the server's last
 * log lines. Without it a stuck set-up ends as jest's anonymous
 * "Exceeded timeout for a hook", naming nothing.
 */
export class SetupWatch {
  /** The budget ran out: the set-up failed with the report, and whatever it waited for may never answer. */
  expired = false;
  private readonly expiry: Promise<never>;
  private timer?: NodeJS.Timeout;
  private server?: TestServer;
  private readonly done: string[] = [];
  private current = '(between steps)';
  private stepStartedAt = Date.now();

  constructor(
    private readonly suite: string,
    readonly budgetMs: number,
  ) {
    this.expiry = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => {
        this.expired = true;
        reject(new Error(this.report()));
      }, budgetMs);
      // A set-up that finished or failed otherwise must not keep the process alive.
      this.timer.unref();
    });
    // Nobody may be awaiting a step when the budget runs out; the next step() reports it.
    this.expiry.catch(() => undefined);
  }

  /** The server whose log lines a failure shows (set once it is up). */
  watchServer(server: TestServer): void {
    this.server = server;
  }

  async step<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.current = name;
    this.stepStartedAt = Date.now();
    const result = await Promise.race([work(), this.expiry]);
    this.done.push(`${name} ${seconds(Date.now() - this.stepStartedAt)}`);
    this.current = '(between steps)';
    return result;
  }

  /** The set-up finished: no report any more. */
  finish(): void {
    clearTimeout(this.timer);
  }

  private report(): string {
    const databases = describeLiveDatabases();
    const logs = (this.server?.logs.lines.slice(-8) ?? []).map((line) => line.slice(0, 400));
    return [
      `${this.suite}: set-up still waiting at step "${this.current}" for ${seconds(Date.now() - this.stepStartedAt)} ` +
        `(set-up budget ${seconds(this.budgetMs)} used up)`,
      `steps done: ${this.done.join(', ') || 'none'}`,
      `databases: ${databases.join(' | ') || 'none open'}`,
      `last server log lines:${logs.length ? `\n  ${logs.join('\n  ')}` : ' none'}`,
    ].join('\n');
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
