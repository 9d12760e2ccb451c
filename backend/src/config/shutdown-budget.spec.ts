import { shutdownBudget } from './shutdown-budget';

describe('shutdownBudget', () => {
  it('by default lets a request wait for a connection and then run its whole time limit, and keeps time to store the results', () => {
    // Connection wait: min(time limit, half the lease grace) = 15 s.
    expect(shutdownBudget({ EXECUTION_TIMEOUT_MS: 30_000, SCHEDULER_LEASE_GRACE_MS: 30_000, SHUTDOWN_TIMEOUT_MS: undefined })).toEqual({ totalMs: 50_000, executionsMs: 46_000, coversLongestExecution: true });
  });

  it('honours a shorter SHUTDOWN_TIMEOUT_MS, keeping part of it for storing the interrupted results', () => {
    expect(shutdownBudget({ EXECUTION_TIMEOUT_MS: 30_000, SCHEDULER_LEASE_GRACE_MS: 30_000, SHUTDOWN_TIMEOUT_MS: 10_000 })).toEqual({ totalMs: 10_000, executionsMs: 6_000, coversLongestExecution: false });
    expect(shutdownBudget({ EXECUTION_TIMEOUT_MS: 30_000, SCHEDULER_LEASE_GRACE_MS: 30_000, SHUTDOWN_TIMEOUT_MS: 3_000 })).toEqual({ totalMs: 3_000, executionsMs: 1_500, coversLongestExecution: false });
    expect(shutdownBudget({ EXECUTION_TIMEOUT_MS: 30_000, SCHEDULER_LEASE_GRACE_MS: 30_000, SHUTDOWN_TIMEOUT_MS: 0 })).toEqual({ totalMs: 0, executionsMs: 0, coversLongestExecution: false });
  });
});
