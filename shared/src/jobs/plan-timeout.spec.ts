import { describe, expect, it } from '@jest/globals';
import { effectiveTimeoutMs, maxTimeoutSeconds, planTimeoutError } from './plan-timeout';

describe('the plan maximum on a job request time limit', () => {
  it.each([
    ['free', 30, 1_800_000, null],
    ['free', 31, 1_800_000, 'timeout_seconds: the free plan allows requests of at most 30 seconds; 31 asked'],
    ['basic', 300, 1_800_000, null],
    ['basic', 301, 1_800_000, 'timeout_seconds: the basic plan allows requests of at most 300 seconds; 301 asked'],
    ['pro', 1_800, 1_800_000, null],
    ['pro', 1_801, 7_200_000, 'timeout_seconds: the pro plan allows requests of at most 1800 seconds; 1801 asked'],
    ['pro', 600, 30_000, 'timeout_seconds: this server allows requests of at most 30 seconds (the pro plan would allow 1800); 600 asked'],
    ['free', null, 30_000, null],
  ] as const)('%s asks %s s on a server of %s ms', (plan, seconds, ceiling, message) => {
    expect(planTimeoutError(seconds, plan, ceiling)).toBe(message);
  });

  it('is the lower of the plan and the server', () => {
    expect(maxTimeoutSeconds('pro', 30_000)).toBe(30);
    expect(maxTimeoutSeconds('basic', 7_200_000)).toBe(300);
  });

  it('runs a job without its own limit for 30 s, never past the ceiling', () => {
    expect(effectiveTimeoutMs(null, 1_800_000)).toBe(30_000);
    expect(effectiveTimeoutMs(null, 5_000)).toBe(5_000);
    expect(effectiveTimeoutMs(120_000, 60_000)).toBe(60_000);
  });
});
