import { describe, expect, it } from '@jest/globals';
import { cronError, parseCron } from './cron-parse';

describe('six fields: a leading second, where seconds are allowed (jobs)', () => {
  it('parses the second and keeps it first in the normalized form', () => {
    const result = parseCron(' */5  0-30 * * * MON ', { seconds: true });
    expect(result.ok && result.cron.second?.values.slice(0, 3)).toEqual([0, 5, 10]);
    expect(result.ok && result.cron.normalized).toBe('*/5 0-30 * * * 1');
    expect(parseCron('0 9 * * *', { seconds: true })).toMatchObject({ ok: true, cron: { second: null } });
  });

  it.each([
    ['60 * * * * *', 'Second must be between 0 and 59'],
    ['*/0 * * * * *', 'Second step must be a whole number from 1 to 60'],
    ['* * * *', 'Cron expression must have 5 fields, or 6 with seconds first'],
    ['* * * * * * *', 'Cron expression must have 5 fields, or 6 with seconds first'],
  ])('%s → %s', (expression, message) => {
    expect(cronError(expression, { seconds: true })).toBe(message);
  });
});

describe('cron validation messages', () => {
  it.each([
    [undefined, 'Cron expression is required'],
    ['', 'Cron expression is required'],
    ['   ', 'Cron expression is required'],
    ['* * * *', 'Cron expression must have 5 fields'],
    ['* * * * * *', 'Cron expression must have 5 fields'],
    ['@daily', 'Cron expression must have 5 fields'],
    ['60 * * * *', 'Minute must be between 0 and 59'],
    ['* 24 * * *', 'Hour must be between 0 and 23'],
    ['* * 0 * *', 'Day of month must be between 1 and 31'],
    ['* * 32 * *', 'Day of month must be between 1 and 31'],
    ['* * * 0 *', 'Month must be between 1 and 12'],
    ['* * * 13 *', 'Month must be between 1 and 12'],
    ['* * * * 7', 'Day of week must be between 0 and 6'],
    ['* * * * 1-7', 'Day of week must be between 0 and 6'],
    ['x * * * *', "Minute has an invalid value 'x' (use 0-59)"],
    ['* * * FOO *', "Month has an invalid value 'FOO' (use 1-12 or JAN-DEC)"],
    ['* * * * MONDAY', "Day of week has an invalid value 'MONDAY' (use 0-6 or SUN-SAT)"],
    ['* * L * *', "Day of month has an invalid value 'L' (use 1-31)"],
    ['* * * * 1#2', "Day of week has an invalid value '1#2' (use 0-6 or SUN-SAT)"],
    ['1,,2 * * * *', "Minute has an invalid value '' (use 0-59)"],
    ['-5 * * * *', "Minute has an invalid value '-5' (use 0-59)"],
    ['1-2-3 * * * *', "Minute has an invalid value '1-2-3' (use 0-59)"],
    ['30-10 * * * *', "Minute range '30-10' must go from low to high"],
    ['*/0 * * * *', 'Minute step must be a whole number from 1 to 60'],
    ['* */25 * * *', 'Hour step must be a whole number from 1 to 24'],
    ['*/x * * * *', 'Minute step must be a whole number from 1 to 60'],
    ['*/5/2 * * * *', "Minute has an invalid value '*/5/2' (use 0-59)"],
    ['0 0 30 2 *', 'Cron expression never runs: no selected month has that day'],
    ['0 0 31 4,6,9,11 *', 'Cron expression never runs: no selected month has that day'],
    [42, 'Cron expression is required'],
  ])('%p → %s', (expression, message) => {
    expect(cronError(expression)).toBe(message);
  });

  it.each(['* * * * *', '0 9 * * MON-FRI', '0 0 29 2 *', '0 0 31 * *', '0 0 30 2 1', '5/15 */2 1-31/2 jan,jul sun'])('accepts %s', (expression) => {
    expect(cronError(expression)).toBeNull();
  });

  it('normalizes names, shorthand steps and spacing for the engine', () => {
    const result = parseCron('  5/15  9-17  *  jan-mar  Mon-Fri ');
    expect(result.ok && result.cron.normalized).toBe('5-59/15 9-17 * 1-3 1-5');
    expect(result.ok && result.cron.minute.values).toEqual([5, 20, 35, 50]);
  });
});
