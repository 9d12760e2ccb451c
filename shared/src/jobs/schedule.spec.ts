import { describe, expect, it } from '@jest/globals';
import { executionsPer30Days, jitterOffsetMs, latestFire, nextFire, nextFires, type ScheduleSpec } from './schedule';

const ms = (iso: string) => Date.parse(iso);
const iso = (at: number) => new Date(at).toISOString();
const spec = (extra: Partial<ScheduleSpec>): ScheduleSpec => ({ cron: null, timeZone: 'UTC', everyMs: null, anchor: null, runAt: null, startsAt: null, endsAt: null, jitterMs: 0, ...extra });
const NOW = ms('2026-01-01T00:00:00.500Z');

describe('schedule arithmetic', () => {
  it('an interval counts from its anchor, strictly after the given instant', () => {
    const every = spec({ everyMs: 30_000, anchor: ms('2026-01-01T00:00:00Z') });
    expect(nextFires(every, 3, NOW).map(iso)).toEqual(['2026-01-01T00:00:30.000Z', '2026-01-01T00:01:00.000Z', '2026-01-01T00:01:30.000Z']);
    expect(iso(nextFire(every, ms('2026-01-01T00:00:30Z'))!)).toBe('2026-01-01T00:01:00.000Z');
    expect(iso(latestFire(every, ms('2026-01-01T00:01:10Z'))!)).toBe('2026-01-01T00:01:00.000Z');
    // An anchor in the future (starts_at) is the first run itself.
    expect(iso(nextFire(spec({ everyMs: 60_000, anchor: ms('2026-02-01T00:00:00Z'), startsAt: ms('2026-02-01T00:00:00Z') }), NOW)!)).toBe('2026-02-01T00:00:00.000Z');
  });

  it('a window bounds cron and interval schedules; a one-off run fires once', () => {
    const bounded = spec({ cron: '0 * * * *', startsAt: ms('2026-01-01T05:30:00Z'), endsAt: ms('2026-01-01T07:00:00Z') });
    expect(nextFires(bounded, 5, NOW).map(iso)).toEqual(['2026-01-01T06:00:00.000Z', '2026-01-01T07:00:00.000Z']);
    const once = spec({ runAt: ms('2026-01-01T00:00:10Z') });
    expect(nextFires(once, 5, NOW).map(iso)).toEqual(['2026-01-01T00:00:10.000Z']);
    expect(nextFire(once, ms('2026-01-01T00:00:10Z'))).toBeNull();
  });

  it('jitter shifts every run by the same offset, which depends on the owner and the name only', () => {
    const offset = jitterOffsetMs(60, 'user-1', 'Nightly');
    expect(offset).toBe(jitterOffsetMs(60, 'user-1', 'nightly'));
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(60_000);
    expect(jitterOffsetMs(0, 'user-1', 'nightly')).toBe(0);
    const offsets = new Set(Array.from({ length: 50 }, (_, i) => jitterOffsetMs(60, 'user-1', `job-${i}`)));
    expect(offsets.size).toBeGreaterThan(40);
    const hourly = spec({ cron: '0 * * * *', jitterMs: offset });
    const runs = nextFires(hourly, 3, NOW);
    expect(runs.map((at) => (at - offset) % 3_600_000)).toEqual([0, 0, 0]);
    // The run whose nominal instant has passed but whose shifted one has not is still ahead.
    expect(nextFire(hourly, ms('2026-01-01T01:00:00Z'))).toBe(ms('2026-01-01T01:00:00Z') + offset);
  });

  it('estimates the executions of 30 days', () => {
    expect(executionsPer30Days(spec({ everyMs: 1_000, anchor: ms('2026-01-01T00:00:00Z') }), NOW)).toBe(2_592_000);
    expect(executionsPer30Days(spec({ cron: '0 * * * *' }), NOW)).toBe(720);
    expect(executionsPer30Days(spec({ cron: '*/5 * * * * *' }), NOW)).toBe(518_400);
    expect(executionsPer30Days(spec({ runAt: ms('2026-01-05T00:00:00Z') }), NOW)).toBe(1);
    expect(executionsPer30Days(spec({ runAt: ms('2026-03-05T00:00:00Z') }), NOW)).toBe(0);
    expect(executionsPer30Days(spec({ cron: '*/5 * * * * *', endsAt: ms('2026-01-01T01:00:00Z') }), NOW)).toBe(720);
  });
});
