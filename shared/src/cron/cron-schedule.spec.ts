import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { nextRun, nextRuns, searchNextRun } from './cron-schedule';

/** 2026-01-01 is a Thursday; 2028 is the next leap year. Expected instants worked out by hand from a calendar. */
const JAN1 = '2026-01-01T00:00:00Z';

const day = (d: string, time = '00:00') => `${d}T${time}:00.000Z`;

const TABLE: Array<[expression: string, from: string, expected: string[]]> = [
  // minutes and hours
  ['* * * * *', JAN1, [day('2026-01-01', '00:01'), day('2026-01-01', '00:02'), day('2026-01-01', '00:03')]],
  ['*/5 * * * *', JAN1, [day('2026-01-01', '00:05'), day('2026-01-01', '00:10'), day('2026-01-01', '00:15')]],
  ['*/15 * * * *', JAN1, [day('2026-01-01', '00:15'), day('2026-01-01', '00:30'), day('2026-01-01', '00:45')]],
  ['0 * * * *', JAN1, [day('2026-01-01', '01:00'), day('2026-01-01', '02:00'), day('2026-01-01', '03:00')]],
  ['30 * * * *', JAN1, [day('2026-01-01', '00:30'), day('2026-01-01', '01:30'), day('2026-01-01', '02:30')]],
  ['0 */6 * * *', JAN1, [day('2026-01-01', '06:00'), day('2026-01-01', '12:00'), day('2026-01-01', '18:00')]],
  ['0 1-5/2 * * *', JAN1, [day('2026-01-01', '01:00'), day('2026-01-01', '03:00'), day('2026-01-01', '05:00'), day('2026-01-02', '01:00')]],
  ['5/15 * * * *', JAN1, [day('2026-01-01', '00:05'), day('2026-01-01', '00:20'), day('2026-01-01', '00:35'), day('2026-01-01', '00:50'), day('2026-01-01', '01:05')]],
  ['10-20/5 * * * *', JAN1, [day('2026-01-01', '00:10'), day('2026-01-01', '00:15'), day('2026-01-01', '00:20'), day('2026-01-01', '01:10')]],
  ['0-2 * * * *', JAN1, [day('2026-01-01', '00:01'), day('2026-01-01', '00:02'), day('2026-01-01', '01:00')]],
  ['0,30 9 * * *', JAN1, [day('2026-01-01', '09:00'), day('2026-01-01', '09:30'), day('2026-01-02', '09:00')]],
  ['0 9,17 * * *', JAN1, [day('2026-01-01', '09:00'), day('2026-01-01', '17:00'), day('2026-01-02', '09:00')]],
  ['0 0 * * *', JAN1, [day('2026-01-02'), day('2026-01-03'), day('2026-01-04')]],
  ['0 9 * * *', JAN1, [day('2026-01-01', '09:00'), day('2026-01-02', '09:00'), day('2026-01-03', '09:00')]],
  ['  0   9  * *  1-5 ', JAN1, [day('2026-01-01', '09:00'), day('2026-01-02', '09:00'), day('2026-01-05', '09:00')]],
  // days of the week, numbers and names
  ['0 9 * * 1-5', JAN1, [day('2026-01-01', '09:00'), day('2026-01-02', '09:00'), day('2026-01-05', '09:00')]],
  ['0 9 * * MON-FRI', JAN1, [day('2026-01-01', '09:00'), day('2026-01-02', '09:00'), day('2026-01-05', '09:00')]],
  ['30 14 * * 0', JAN1, [day('2026-01-04', '14:30'), day('2026-01-11', '14:30'), day('2026-01-18', '14:30')]],
  ['30 14 * * SUN', JAN1, [day('2026-01-04', '14:30'), day('2026-01-11', '14:30'), day('2026-01-18', '14:30')]],
  ['30 14 * * sun', JAN1, [day('2026-01-04', '14:30'), day('2026-01-11', '14:30'), day('2026-01-18', '14:30')]],
  ['0 0 * * 6,0', JAN1, [day('2026-01-03'), day('2026-01-04'), day('2026-01-10')]],
  ['0 0 * * SAT,SUN', JAN1, [day('2026-01-03'), day('2026-01-04'), day('2026-01-10')]],
  ['15 10 * * 1,3,5', JAN1, [day('2026-01-02', '10:15'), day('2026-01-05', '10:15'), day('2026-01-07', '10:15')]],
  ['0 0 * * 1', '2026-01-05T00:00:00Z', [day('2026-01-12'), day('2026-01-19'), day('2026-01-26')]],
  ['0 0 * * 1', '2026-01-04T23:59:30Z', [day('2026-01-05'), day('2026-01-12')]],
  ['* * * * *', '2026-01-01T00:00:30.500Z', [day('2026-01-01', '00:01'), day('2026-01-01', '00:02')]],
  // days of the month and month ends
  ['0 0 1 * *', JAN1, [day('2026-02-01'), day('2026-03-01'), day('2026-04-01')]],
  ['0 0 1,15 * *', JAN1, [day('2026-01-15'), day('2026-02-01'), day('2026-02-15')]],
  ['0 0 1-3 * *', JAN1, [day('2026-01-02'), day('2026-01-03'), day('2026-02-01')]],
  ['0 0 */10 * *', JAN1, [day('2026-01-11'), day('2026-01-21'), day('2026-01-31'), day('2026-02-01')]],
  ['0 0 31 * *', JAN1, [day('2026-01-31'), day('2026-03-31'), day('2026-05-31')]],
  ['0 0 31 * *', '2026-04-01T00:00:00Z', [day('2026-05-31'), day('2026-07-31'), day('2026-08-31')]],
  ['0 0 30 * *', JAN1, [day('2026-01-30'), day('2026-03-30'), day('2026-04-30')]],
  ['0 0 30 1,2 *', JAN1, [day('2026-01-30'), day('2027-01-30'), day('2028-01-30')]],
  ['59 23 31 12 *', JAN1, [day('2026-12-31', '23:59'), day('2027-12-31', '23:59'), day('2028-12-31', '23:59')]],
  // leap years
  ['0 0 29 2 *', JAN1, [day('2028-02-29'), day('2032-02-29'), day('2036-02-29')]],
  ['0 12 29 FEB *', '2028-03-01T00:00:00Z', [day('2032-02-29', '12:00'), day('2036-02-29', '12:00'), day('2040-02-29', '12:00')]],
  ['0 0 28-31 2 *', JAN1, [day('2026-02-28'), day('2027-02-28'), day('2028-02-28'), day('2028-02-29')]],
  // months
  ['0 0 1 1 *', JAN1, [day('2027-01-01'), day('2028-01-01'), day('2029-01-01')]],
  ['0 0 1 JAN *', JAN1, [day('2027-01-01'), day('2028-01-01'), day('2029-01-01')]],
  ['0 0 1 */3 *', JAN1, [day('2026-04-01'), day('2026-07-01'), day('2026-10-01')]],
  ['0 0 1 7-12/2 *', JAN1, [day('2026-07-01'), day('2026-09-01'), day('2026-11-01')]],
  ['0 12 * JAN-MAR *', '2026-03-31T12:00:00Z', [day('2027-01-01', '12:00'), day('2027-01-02', '12:00'), day('2027-01-03', '12:00')]],
  // both day fields restricted: either matches (standard cron OR)
  ['0 0 1 * 1', JAN1, [day('2026-01-05'), day('2026-01-12'), day('2026-01-19'), day('2026-01-26'), day('2026-02-01'), day('2026-02-02')]],
  ['0 0 13 * 5', JAN1, [day('2026-01-02'), day('2026-01-09'), day('2026-01-13'), day('2026-01-16')]],
  ['0 0 1 * 0', JAN1, [day('2026-01-04'), day('2026-01-11'), day('2026-01-18'), day('2026-01-25'), day('2026-02-01'), day('2026-02-08')]],
  // a starred day of month ANDs with the day of week (Mondays that fall on the 1st, 11th, 21st or 31st)
  ['0 0 */10 * 1', JAN1, [day('2026-05-11'), day('2026-06-01'), day('2026-08-31')]],
];

describe('cron next runs (UTC)', () => {
  it('covers at least 40 expressions', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE)('%s after %s', (expression, from, expected) => {
    const runs = nextRuns(expression, expected.length, new Date(from)).map((d) => d.toISOString());
    expect(runs).toEqual(expected);
    expect(nextRun(expression, new Date(from))?.toISOString()).toBe(expected[0]);
  });

  it('fires six-field expressions to the second, in UTC and in a zone', () => {
    expect(nextRuns('*/20 * * * * *', 4, new Date('2026-01-01T00:00:50Z')).map((d) => d.toISOString())).toEqual([
      '2026-01-01T00:01:00.000Z',
      '2026-01-01T00:01:20.000Z',
      '2026-01-01T00:01:40.000Z',
      '2026-01-01T00:02:00.000Z',
    ]);
    expect(nextRun('30 0 9 * * *', new Date('2026-07-01T00:00:00Z'), 'Europe/Berlin')?.toISOString()).toBe('2026-07-01T07:00:30.000Z');
  });

  it('refuses to compute runs for an invalid expression', () => {
    expect(() => nextRuns('61 * * * *', 1)).toThrow('Minute must be between 0 and 59');
  });
});

describe('cron next run, answered from the last search', () => {
  // Seconds, minutes, a yearly one, a day-of-week one, a leap day and zones with
  // clock changes: in any order of questions, the answer is the one a fresh search gives.
  const EXPRESSIONS = ['*/7 * * * * *', '*/5 * * * *', '0 0 1 1 *', '30 2 * * 0', '0 0 29 2 *'];
  const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York'];
  const START = Date.parse('2026-03-07T00:00:00Z');
  const SPAN = 40 * 86_400_000;

  it('gives the engine\'s answer for any sequence of instants, boundaries included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...EXPRESSIONS), fc.constantFrom(...ZONES), fc.integer({ min: 0, max: SPAN }), fc.boolean(), fc.integer({ min: -2, max: 2 })), { minLength: 1, maxLength: 40 }),
        (questions) => {
          let previous: number | null = null;
          for (const [expression, zone, offset, nearPrevious, nudge] of questions) {
            // Half the questions land on or next to the previous answer, where an off-by-one in the gap would show.
            const at: number = previous !== null && nearPrevious ? previous + nudge : START + offset;
            const answer: number | null = nextRun(expression, new Date(at), zone)?.getTime() ?? null;
            expect(answer).toBe(searchNextRun(expression, new Date(at), zone)?.getTime() ?? null);
            if (answer !== null) expect(answer).toBeGreaterThan(at);
            previous = answer;
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('answers an instant equal to the last answer with the run after it', () => {
    const first = nextRun('0 0 1 1 *', new Date('2026-06-01T00:00:00Z'))!;
    expect(first.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextRun('0 0 1 1 *', new Date('2026-12-31T23:59:59.999Z'))).toEqual(first);
    expect(nextRun('0 0 1 1 *', first)?.toISOString()).toBe('2028-01-01T00:00:00.000Z');
    // Earlier than the remembered search: searched again, not answered from it.
    expect(nextRun('0 0 1 1 *', new Date('2025-06-01T00:00:00Z'))?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});
