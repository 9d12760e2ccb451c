import { describe, expect, it } from '@jest/globals';
import { nextRun, nextRuns } from './cron-schedule';
import { formatInZone, fromWallTime, isTimeZone } from './time-zone';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString().replace('.000', ''));

/**
 * Expected instants worked out by hand from the zones' 2026 rules: New York
 * springs forward 8 March 02:00 EST -> 03:00 EDT and falls back 1 November
 * 02:00 EDT -> 01:00 EST; Berlin 29 March 02:00 CET -> 03:00 CEST and
 * 25 October 03:00 CEST -> 02:00 CET; Sydney 5 April 03:00 AEDT -> 02:00
 * AEST and 4 October 02:00 AEST -> 03:00 AEDT; Lord Howe moves by half an
 * hour (4 October 02:00 +10:30 -> 02:30 +11).
 */
const TABLE: Array<[zone: string, expression: string, from: string, expected: string[]]> = [
  // A skipped local time fires once, at the time as far after the change as it was after the last valid minute.
  ['America/New_York', '30 2 * * *', '2026-03-06T00:00:00Z', ['2026-03-06T07:30:00Z', '2026-03-07T07:30:00Z', '2026-03-08T07:30:00Z', '2026-03-09T06:30:00Z']],
  ['America/New_York', '*/30 * * * *', '2026-03-08T06:45:00Z', ['2026-03-08T07:00:00Z', '2026-03-08T07:30:00Z', '2026-03-08T08:00:00Z']],
  ['Europe/Berlin', '30 2 * * *', '2026-03-28T00:00:00Z', ['2026-03-28T01:30:00Z', '2026-03-29T01:30:00Z', '2026-03-30T00:30:00Z']],
  ['Australia/Sydney', '30 2 * * *', '2026-10-02T00:00:00Z', ['2026-10-02T16:30:00Z', '2026-10-03T16:30:00Z', '2026-10-04T15:30:00Z']],
  ['Australia/Lord_Howe', '15 2 * * *', '2026-10-02T00:00:00Z', ['2026-10-02T15:45:00Z', '2026-10-03T15:45:00Z', '2026-10-04T15:15:00Z']],
  // A local time shown twice fires once, at its first occurrence.
  ['America/New_York', '30 1 * * *', '2026-10-30T00:00:00Z', ['2026-10-30T05:30:00Z', '2026-10-31T05:30:00Z', '2026-11-01T05:30:00Z', '2026-11-02T06:30:00Z']],
  ['America/New_York', '*/30 * * * *', '2026-11-01T04:45:00Z', ['2026-11-01T05:00:00Z', '2026-11-01T05:30:00Z', '2026-11-01T07:00:00Z', '2026-11-01T07:30:00Z']],
  ['Europe/Berlin', '30 2 * * *', '2026-10-24T00:00:00Z', ['2026-10-24T00:30:00Z', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z']],
  ['Australia/Sydney', '30 2 * * *', '2026-04-03T00:00:00Z', ['2026-04-03T15:30:00Z', '2026-04-04T15:30:00Z', '2026-04-05T16:30:00Z']],
  // Plain days, and UTC as before.
  ['Asia/Tokyo', '0 9 * * 1-5', '2026-01-01T00:00:00Z', ['2026-01-02T00:00:00Z', '2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z']],
  ['UTC', '0 9 * * *', '2026-01-01T00:00:00Z', ['2026-01-01T09:00:00Z', '2026-01-02T09:00:00Z']],
];

describe('cron in a time zone', () => {
  it.each(TABLE)('%s %s after %s', (zone, expression, from, expected) => {
    expect(iso(nextRuns(expression, expected.length, new Date(from), zone))).toEqual(expected);
  });

  it('from inside the repeated hour, the second pass of an already fired time does not fire again', () => {
    // 06:10Z is 01:10 EST, the second 01:10 of the night; 01:30 fired at 05:30Z (EDT) already.
    expect(nextRun('30 1 * * *', new Date('2026-11-01T06:10:00Z'), 'America/New_York')?.toISOString()).toBe('2026-11-02T06:30:00.000Z');
  });

  it('from just after the spring change, a skipped time not yet reached still fires', () => {
    // 07:10Z is 03:10 EDT; 02:30 EST read across the change is 03:30 EDT (07:30Z).
    expect(nextRun('30 2 * * *', new Date('2026-03-08T07:10:00Z'), 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('a rare date is found years ahead (29 February, in winter time)', () => {
    expect(nextRun('0 12 29 2 *', new Date('2026-01-01T00:00:00Z'), 'Europe/Berlin')?.toISOString()).toBe('2028-02-29T11:00:00.000Z');
  });

  it('maps wall times: first occurrence when repeated, the earlier offset when skipped', () => {
    expect(new Date(fromWallTime('America/New_York', Date.UTC(2026, 10, 1, 1, 30))).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(new Date(fromWallTime('America/New_York', Date.UTC(2026, 2, 8, 2, 30))).toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('formats an instant on the zone clock with its abbreviation', () => {
    expect(formatInZone(new Date('2026-03-08T07:30:00Z'), 'America/New_York')).toBe('2026-03-08 03:30 EDT');
    expect(formatInZone(new Date('2026-01-01T09:00:00Z'), 'UTC')).toBe('2026-01-01 09:00 UTC');
  });
});

describe('isTimeZone', () => {
  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])('accepts %s', (zone) => {
    expect(isTimeZone(zone)).toBe(true);
  });
  it.each(['', 'Mars/Olympus', 'europe/berlin', '+02:00', 'GMT+2 ', 42, null, 'Europe/Berlin\n'])('refuses %p', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
  });
});
