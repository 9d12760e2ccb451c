import { describe, expect, it } from '@jest/globals';
import { describeCron } from './cron-describe';

describe('cron descriptions', () => {
  it.each([
    ['* * * * *', 'Every minute'],
    ['*/5 * * * *', 'Every 5 minutes'],
    ['0 * * * *', 'At minute 0 of every hour'],
    ['0,30 * * * *', 'At minutes 0 and 30 of every hour'],
    ['5/15 * * * *', 'Every 15 minutes from minute 5 through 59 of every hour'],
    ['0 */2 * * *', 'At minute 0, every 2 hours'],
    ['0 0 * * *', 'At 00:00, every day'],
    ['0 9 * * 1-5', 'At 09:00, Monday through Friday'],
    ['30 14 * * SUN', 'At 14:30, only on Sunday'],
    ['15 10 * * 1,3,5', 'At 10:15, only on Monday, Wednesday and Friday'],
    ['0 9,17 * * *', 'At 09:00 and 17:00, every day'],
    ['*/15 9-17 * * 1-5', 'Every 15 minutes, between 09:00 and 17:59, Monday through Friday'],
    ['0 0 1 * *', 'At 00:00, on day 1 of the month'],
    ['0 0 1,15 * *', 'At 00:00, on days 1 and 15 of the month'],
    ['0 0 1 * 1', 'At 00:00, on day 1 of the month or on Monday'],
    ['0 0 */10 * 1', 'At 00:00, every 10 days of the month, and only on Monday'],
    ['0 12 * JAN-MAR *', 'At 12:00, every day, in January through March'],
    ['0 0 29 2 *', 'At 00:00, on day 29 of the month, in February'],
    ['*/5 * * * * *', 'Every 5 seconds'],
    ['* * * * * *', 'Every second'],
    ['0,30 * * * * *', 'At seconds 0 and 30'],
    ['15 0 9 * * 1-5', 'At second 15, at 09:00, Monday through Friday'],
    ['0 0 9 * * *', 'At 09:00, every day'],
  ])('%s → %s', (expression, text) => {
    expect(describeCron(expression)).toBe(text);
  });

  it('answers the validation message for an invalid expression', () => {
    expect(describeCron('* * *')).toBe('Cron expression must have 5 fields, or 6 with seconds first');
  });
});
