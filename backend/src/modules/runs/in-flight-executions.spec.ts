import type { ExecutionResult } from '../executor/http-executor.service';
import { InFlightExecutions, INTERRUPTED_MESSAGE } from './in-flight-executions';

function answer(): ExecutionResult {
  return { success: true, startedAt: new Date(), responseCode: 200, durationMs: 5, responseBody: 'ok', errorMessage: null, retryable: false };
}

function pending() {
  let resolve!: (result: ExecutionResult) => void;
  const promise = new Promise<ExecutionResult>((r) => (resolve = r));
  return { promise, resolve };
}

describe('InFlightExecutions', () => {
  it('answers the target\'s result and is idle once every execution has ended', async () => {
    const executions = new InFlightExecutions();
    const a = pending();
    const tracked = executions.track(a.promise);
    let idle = false;
    void executions.whenIdle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    a.resolve(answer());
    expect(await tracked).toMatchObject({ success: true, responseCode: 200 });
    await executions.whenIdle();
    expect(executions.size).toBe(0);
  });

  it('ends the executions still in flight as interrupted, once: a later answer is ignored', async () => {
    const executions = new InFlightExecutions();
    const late = pending();
    const done = pending();
    const interrupted = executions.track(late.promise);
    const finished = executions.track(done.promise);
    done.resolve(answer());
    await finished;
    expect(executions.interrupt()).toBe(1);
    late.resolve(answer());
    expect(await interrupted).toMatchObject({ success: false, responseCode: null, errorMessage: INTERRUPTED_MESSAGE, retryable: true });
    expect(executions.interrupt()).toBe(0);
    await executions.whenIdle();
  });

  it('passes an execution\'s error on unless it was interrupted first', async () => {
    const executions = new InFlightExecutions();
    await expect(executions.track(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const failing = pending();
    const tracked = executions.track(failing.promise.then(() => Promise.reject(new Error('too late'))));
    executions.interrupt();
    failing.resolve(answer());
    expect(await tracked).toMatchObject({ errorMessage: INTERRUPTED_MESSAGE });
  });
});
