import { latestRunAtOrBefore } from '@cronbeam/shared/cron/cron-schedule';
import type { ScheduleSpec } from '@cronbeam/shared/jobs/schedule';
import { LATEST, planDue, type CatchUp } from './due-instants';
import { MAX_MISSED_RECORDED } from './scheduler-settings';

const at = (iso: string) => new Date(iso);
const ms = (iso: string) => Date.parse(iso);
const cron = (expression: string, timeZone = 'UTC'): ScheduleSpec => ({ cron: expression, timeZone, everyMs: null, anchor: null, runAt: null, startsAt: null, endsAt: null, jitterMs: 0 });
const every = (seconds: number, anchor: string, extra: Partial<ScheduleSpec> = {}): ScheduleSpec => ({ ...cron(''), cron: null, everyMs: seconds * 1000, anchor: ms(anchor), ...extra });
const fires = (plan: { fires: Array<{ at: Date }> }) => plan.fires.map((f) => f.at);

describe('planDue', () => {
  it('fires the due time and computes the next one', () => {
    const plan = planDue(cron('*/5 * * * *'), LATEST, at('2026-01-01T00:05:00Z'), ms('2026-01-01T00:04:57Z'), 60_000);
    expect(plan).toMatchObject({ fires: [{ at: at('2026-01-01T00:05:00Z'), recovery: false }], missed: [], moreMissed: false, next: at('2026-01-01T00:10:00Z') });
  });

  it('labels a single due time far in the past as a recovery run', () => {
    const plan = planDue(cron('0 0 * * *'), LATEST, at('2026-01-01T00:00:00Z'), ms('2026-01-01T03:00:00Z'), 60_000);
    expect(plan.fires).toEqual([{ at: at('2026-01-01T00:00:00Z'), recovery: true }]);
    expect(plan.next).toEqual(at('2026-01-02T00:00:00Z'));
  });

  it('after an outage fires only the latest due time and lists the missed ones', () => {
    const plan = planDue(cron('*/10 * * * *'), LATEST, at('2026-01-01T00:00:00Z'), ms('2026-01-01T00:35:00Z'), 60_000);
    expect(plan.fires).toEqual([{ at: at('2026-01-01T00:30:00Z'), recovery: true }]);
    expect(plan.missed).toEqual([at('2026-01-01T00:00:00Z'), at('2026-01-01T00:10:00Z'), at('2026-01-01T00:20:00Z')]);
    expect(plan.next).toEqual(at('2026-01-01T00:40:00Z'));
  });

  it('caps the recorded missed due times of a long outage', () => {
    const plan = planDue(cron('* * * * *'), LATEST, at('2026-01-01T00:00:00Z'), ms('2026-01-03T00:00:30Z'), 60_000);
    expect(fires(plan)).toEqual([at('2026-01-03T00:00:00Z')]);
    expect(plan.missed).toHaveLength(MAX_MISSED_RECORDED);
    expect(plan.moreMissed).toBe(true);
  });
});

describe('planDue: catch-up policies', () => {
  const none: CatchUp = { policy: 'none', windowMs: null };
  const within = (seconds: number): CatchUp => ({ policy: 'all_within', windowMs: seconds * 1000 });

  it('none: fires nothing late, records it missed, and goes on at the next due time', () => {
    const plan = planDue(cron('*/10 * * * *'), none, at('2026-01-01T00:00:00Z'), ms('2026-01-01T00:35:00Z'), 60_000);
    expect(plan.fires).toEqual([]);
    expect(plan.missed).toEqual([at('2026-01-01T00:00:00Z'), at('2026-01-01T00:10:00Z'), at('2026-01-01T00:20:00Z'), at('2026-01-01T00:30:00Z')]);
    expect(plan.next).toEqual(at('2026-01-01T00:40:00Z'));
    expect(plan.missedReason).toContain('catch_up: none');
    const single = planDue(cron('0 0 * * *'), none, at('2026-01-01T00:00:00Z'), ms('2026-01-01T03:00:00Z'), 60_000);
    expect(single).toMatchObject({ fires: [], missed: [at('2026-01-01T00:00:00Z')], next: at('2026-01-02T00:00:00Z') });
  });

  it('none: a due time still on time fires', () => {
    const plan = planDue(cron('*/10 * * * *'), none, at('2026-01-01T00:00:00Z'), ms('2026-01-01T00:30:20Z'), 60_000);
    expect(plan.fires).toEqual([{ at: at('2026-01-01T00:30:00Z'), recovery: false }]);
    expect(plan.missed).toHaveLength(3);
    expect(planDue(cron('*/5 * * * *'), none, at('2026-01-01T00:05:00Z'), ms('2026-01-01T00:04:57Z'), 60_000).fires).toHaveLength(1);
  });

  it('all_within: fires every due time of the window, oldest first; older ones are missed', () => {
    const plan = planDue(cron('*/10 * * * *'), within(25 * 60), at('2026-01-01T00:00:00Z'), ms('2026-01-01T00:35:00Z'), 60_000);
    expect(fires(plan)).toEqual([at('2026-01-01T00:10:00Z'), at('2026-01-01T00:20:00Z'), at('2026-01-01T00:30:00Z')]);
    expect(plan.missed).toEqual([at('2026-01-01T00:00:00Z')]);
    expect(plan.next).toEqual(at('2026-01-01T00:40:00Z'));
  });

  it('all_within: fires a bounded number per claim and leaves the rest to the next claim', () => {
    const plan = planDue(every(1, '2026-01-01T00:00:00Z'), within(3600), at('2026-01-01T00:00:01Z'), ms('2026-01-01T00:10:00Z'), 5_000);
    expect(plan.fires).toHaveLength(20);
    expect(plan.next).toEqual(at('2026-01-01T00:00:21Z'));
  });

  it('all_within: an ordinary claim ahead of the instant fires it once', () => {
    const plan = planDue(every(5, '2026-01-01T00:00:00Z'), within(60), at('2026-01-01T00:00:05Z'), ms('2026-01-01T00:00:04Z'), 5_000);
    expect(plan.fires).toEqual([{ at: at('2026-01-01T00:00:05Z'), recovery: false }]);
    expect(plan.next).toEqual(at('2026-01-01T00:00:10Z'));
  });
});

describe('planDue: intervals, windows and one-off runs', () => {
  it('an interval counts from its anchor, with the jitter offset added', () => {
    const plan = planDue(every(30, '2026-01-01T00:00:00Z', { jitterMs: 1_500 }), LATEST, at('2026-01-01T00:00:31.500Z'), ms('2026-01-01T00:00:31Z'), 5_000);
    expect(fires(plan)).toEqual([at('2026-01-01T00:00:31.500Z')]);
    expect(plan.next).toEqual(at('2026-01-01T00:01:01.500Z'));
  });

  it('ends_at stops the schedule; a one-off run has no next run', () => {
    const ending = planDue(every(10, '2026-01-01T00:00:00Z', { endsAt: ms('2026-01-01T00:00:25Z') }), LATEST, at('2026-01-01T00:00:20Z'), ms('2026-01-01T00:00:19Z'), 5_000);
    expect(ending.next).toBeNull();
    const once = planDue({ ...cron(''), cron: null, runAt: ms('2026-01-01T00:00:20Z') }, LATEST, at('2026-01-01T00:00:20Z'), ms('2026-01-01T00:00:19Z'), 5_000);
    expect(once).toMatchObject({ fires: [{ at: at('2026-01-01T00:00:20Z') }], next: null });
  });
});

describe('planDue in a time zone', () => {
  it('moves a daily 02:30 Berlin job across the spring change to the shifted instant, then back to summer time', () => {
    const plan = planDue(cron('30 2 * * *', 'Europe/Berlin'), LATEST, at('2026-03-28T01:30:00Z'), ms('2026-03-28T01:29:58Z'), 60_000);
    expect(plan.next).toEqual(at('2026-03-29T01:30:00Z'));
    const after = planDue(cron('30 2 * * *', 'Europe/Berlin'), LATEST, at('2026-03-29T01:30:00Z'), ms('2026-03-29T01:29:58Z'), 60_000);
    expect(after.next).toEqual(at('2026-03-30T00:30:00Z'));
  });

  it('after an outage, fires the latest local due time and records the earlier ones as missed', () => {
    const plan = planDue(cron('0 9 * * *', 'America/New_York'), LATEST, at('2026-03-07T14:00:00Z'), ms('2026-03-09T15:00:00Z'), 60_000);
    expect(fires(plan)).toEqual([at('2026-03-09T13:00:00Z')]);
    expect(plan.missed).toEqual([at('2026-03-07T14:00:00Z'), at('2026-03-08T13:00:00Z')]);
    expect(plan.next).toEqual(at('2026-03-10T13:00:00Z'));
  });
});

describe('latestRunAtOrBefore', () => {
  it('finds the latest instant at or before a time, also far back', () => {
    expect(latestRunAtOrBefore('*/5 * * * *', at('2026-01-01T00:07:00Z'), 'UTC')).toEqual(at('2026-01-01T00:05:00Z'));
    expect(latestRunAtOrBefore('*/5 * * * *', at('2026-01-01T00:05:00Z'), 'UTC')).toEqual(at('2026-01-01T00:05:00Z'));
    expect(latestRunAtOrBefore('0 0 1 1 *', at('2026-06-01T00:00:00Z'), 'UTC')).toEqual(at('2026-01-01T00:00:00Z'));
  });
});
