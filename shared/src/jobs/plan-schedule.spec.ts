import { describe, expect, it } from '@jest/globals';
import { shortestGapSeconds } from '../cron/cron-schedule';
import { planIntervalError } from './plan-schedule';

describe('the plan floor on how often a job runs', () => {
  it('finds the shortest gap of a schedule', () => {
    expect(shortestGapSeconds('*/5 * * * *')).toBe(60);
    expect(shortestGapSeconds('*/5 * * * * *')).toBe(5);
    expect(shortestGapSeconds('0,1 * * * * *')).toBe(1);
    expect(shortestGapSeconds('30 * * * * *')).toBe(60);
    expect(shortestGapSeconds('*/10 0 9 * * *', 'Europe/Berlin')).toBe(10);
  });

  it.each([
    ['free', '*/30 * * * * *', 'The free plan runs a job at most once every 60 seconds; this schedule runs 30 seconds apart'],
    ['free', '15 * * * * *', null],
    ['free', '* * * * *', null],
    ['basic', '*/5 * * * * *', 'The basic plan runs a job at most once every 10 seconds; this schedule runs 5 seconds apart'],
    ['basic', '*/10 * * * * *', null],
    ['pro', '* * * * * *', null],
    ['unlimited', '0,1 * * * * *', null],
  ] as const)('%s: %s', (plan, expression, message) => {
    expect(planIntervalError(expression, 'UTC', plan)).toBe(message);
  });
});
