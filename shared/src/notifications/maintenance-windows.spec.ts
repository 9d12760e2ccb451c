import { describe, expect, it } from '@jest/globals';
import { maintenanceWindowSchema, MAINTENANCE_MESSAGES, windowCovers, windowTargets, type WindowTiming } from './maintenance-windows';

const recurring = (cron_expression: string, duration_minutes: number, time_zone: string): WindowTiming => ({ starts_at: null, ends_at: null, cron_expression, duration_minutes, time_zone });
const at = (iso: string) => new Date(iso);
const ms = 1;

describe('maintenance window boundaries', () => {
  it('opens a one-off window at starts_at (inclusive) and closes it at ends_at (exclusive)', () => {
    const w: WindowTiming = { starts_at: '2026-11-27T10:00:00+01:00', ends_at: '2026-11-27T11:30:00+01:00', cron_expression: null, duration_minutes: null, time_zone: 'UTC' };
    expect(windowCovers(w, new Date(Date.parse('2026-11-27T09:00:00Z') - ms))).toBe(false);
    expect(windowCovers(w, at('2026-11-27T09:00:00Z'))).toBe(true);
    expect(windowCovers(w, new Date(Date.parse('2026-11-27T10:30:00Z') - ms))).toBe(true);
    expect(windowCovers(w, at('2026-11-27T10:30:00Z'))).toBe(false);
  });

  // Sundays 02:00 to 03:00 in Berlin: 00:00-01:00 UTC in summer (CEST, +2), 01:00-02:00 UTC in winter (CET, +1).
  const sundayNight = recurring('0 2 * * SUN', 60, 'Europe/Berlin');

  it.each([
    ['summer, just before', new Date(Date.parse('2026-07-05T00:00:00Z') - ms), false],
    ['summer, at the start', at('2026-07-05T00:00:00Z'), true],
    ['summer, last millisecond', new Date(Date.parse('2026-07-05T01:00:00Z') - ms), true],
    ['summer, at the end', at('2026-07-05T01:00:00Z'), false],
    ['winter, just before', new Date(Date.parse('2026-01-04T01:00:00Z') - ms), false],
    ['winter, at the start', at('2026-01-04T01:00:00Z'), true],
    ['winter, last millisecond', new Date(Date.parse('2026-01-04T02:00:00Z') - ms), true],
    ['winter, at the end', at('2026-01-04T02:00:00Z'), false],
    ['a Saturday at the same hour', at('2026-07-04T00:30:00Z'), false],
  ])('Sundays 02:00-03:00 Europe/Berlin: %s', (_case, instant, open) => {
    expect(windowCovers(sundayNight, instant)).toBe(open);
  });

  it('opens a window whose start the clocks skip (02:00 on the spring-forward Sunday) at the shifted instant, once', () => {
    // 29 March 2026: Berlin's clocks go from 02:00 CET to 03:00 CEST, i.e. at 01:00 UTC.
    expect(windowCovers(sundayNight, new Date(Date.parse('2026-03-29T01:00:00Z') - ms))).toBe(false);
    expect(windowCovers(sundayNight, at('2026-03-29T01:00:00Z'))).toBe(true);
    expect(windowCovers(sundayNight, at('2026-03-29T01:59:00Z'))).toBe(true);
    expect(windowCovers(sundayNight, at('2026-03-29T02:00:00Z'))).toBe(false);
  });

  it('keeps a window open across midnight on the zone clocks (22:00 for 3 hours in New York)', () => {
    const nightly = recurring('0 22 * * *', 180, 'America/New_York');
    // 15 January 2026, EST (-5): 22:00 local is 03:00 UTC on the 16th, the end 06:00 UTC.
    expect(windowCovers(nightly, new Date(Date.parse('2026-01-16T03:00:00Z') - ms))).toBe(false);
    expect(windowCovers(nightly, at('2026-01-16T03:00:00Z'))).toBe(true);
    expect(windowCovers(nightly, at('2026-01-16T05:00:00Z'))).toBe(true); // midnight local has passed
    expect(windowCovers(nightly, new Date(Date.parse('2026-01-16T06:00:00Z') - ms))).toBe(true);
    expect(windowCovers(nightly, at('2026-01-16T06:00:00Z'))).toBe(false);
    // The same window in July (EDT, -4) opens an hour earlier in UTC.
    expect(windowCovers(nightly, at('2026-07-16T02:00:00Z'))).toBe(true);
    expect(windowCovers(nightly, at('2026-07-16T05:00:00Z'))).toBe(false);
  });

  it('targets one job, the jobs carrying a tag, or every job', () => {
    const job = { job_id: 'a', tags: ['prod', 'billing'] };
    expect(windowTargets({ job_id: 'a', tag: null }, job)).toBe(true);
    expect(windowTargets({ job_id: 'b', tag: null }, job)).toBe(false);
    expect(windowTargets({ job_id: null, tag: 'billing' }, job)).toBe(true);
    expect(windowTargets({ job_id: null, tag: 'staging' }, job)).toBe(false);
    expect(windowTargets({ job_id: null, tag: null }, job)).toBe(true);
  });
});

describe('maintenance window rules', () => {
  const issues = (value: unknown) => {
    const result = maintenanceWindowSchema.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => ({ path: i.path, message: i.message }));
  };

  it('accepts a one-off and a recurring window with their defaults', () => {
    expect(maintenanceWindowSchema.parse({ name: ' deploy ', starts_at: '2026-11-27T10:00:00Z', ends_at: '2026-11-27T11:00:00Z' })).toEqual({
      name: 'deploy',
      job_id: null,
      tag: null,
      starts_at: '2026-11-27T10:00:00Z',
      ends_at: '2026-11-27T11:00:00Z',
      cron_expression: null,
      duration_minutes: null,
      time_zone: 'UTC',
      pause_runs: false,
    });
    expect(maintenanceWindowSchema.parse({ name: 'nightly', tag: 'Prod', cron_expression: ' 0  2 * * SUN', duration_minutes: 60, time_zone: 'Europe/Berlin', pause_runs: true })).toMatchObject({
      tag: 'prod',
      cron_expression: '0 2 * * SUN',
    });
  });

  it.each([
    [{ name: 'x' }, ['starts_at'], MAINTENANCE_MESSAGES.timing],
    [{ name: 'x', starts_at: '2026-11-27T10:00:00Z', ends_at: '2026-11-27T11:00:00Z', cron_expression: '0 2 * * *', duration_minutes: 5 }, ['cron_expression'], MAINTENANCE_MESSAGES.timing],
    [{ name: 'x', starts_at: '2026-11-27T10:00:00Z', ends_at: '2026-11-27T10:00:00Z' }, ['ends_at'], MAINTENANCE_MESSAGES.endsAt],
    [{ name: 'x', starts_at: '2026-11-27T10:00:00Z' }, ['ends_at'], MAINTENANCE_MESSAGES.endsAt],
    [{ name: 'x', starts_at: 'tomorrow', ends_at: '2026-11-27T10:00:00Z' }, ['starts_at'], MAINTENANCE_MESSAGES.startsAt],
    [{ name: 'x', cron_expression: '0 2 * *', duration_minutes: 60 }, ['cron_expression'], MAINTENANCE_MESSAGES.cron],
    [{ name: 'x', cron_expression: '0 2 * * *', duration_minutes: 0 }, ['duration_minutes'], MAINTENANCE_MESSAGES.duration],
    [{ name: 'x', cron_expression: '0 2 * * *' }, ['duration_minutes'], MAINTENANCE_MESSAGES.duration],
    [{ name: 'x', cron_expression: '0 2 * * *', duration_minutes: 60, time_zone: 'Mars/Olympus' }, ['time_zone'], MAINTENANCE_MESSAGES.timeZone],
    [{ name: 'x', job_id: 'a', tag: 'prod', cron_expression: '0 2 * * *', duration_minutes: 60 }, ['tag'], MAINTENANCE_MESSAGES.scope],
    [{ name: '', cron_expression: '0 2 * * *', duration_minutes: 60 }, ['name'], MAINTENANCE_MESSAGES.name],
    [{ name: 'x', cron_expression: '0 2 * * *', duration_minutes: 60, extra: 1 }, [], 'Unknown field: extra'],
  ])('refuses %j naming the field', (value, path, message) => {
    expect(issues(value)).toContainEqual({ path, message });
  });
});
