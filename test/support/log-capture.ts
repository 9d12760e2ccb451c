import { Writable } from 'node:stream';

/** Collects the server's JSON log lines so tests can assert on what was (and was not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  private partial = '';

  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    const text = this.partial + chunk.toString('utf8');
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts.filter(Boolean));
    if (process.env.TEST_LOGS === 'stdout') process.stdout.write(chunk);
    done();
  }

  /** Every line so far, parsed. */
  entries(): Array<Record<string, unknown>> {
    return this.lines.map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { msg: l };
      }
    });
  }

  text(): string {
    return this.lines.join('\n');
  }
}
