import { latestCronInstant } from './cron-schedule';
import { planDue } from './due-instants';
import { MAX_MISSED_RECORDED } from './scheduler-settings';

const at = (iso: string) => new Date(iso);

describe('planDue', () => {
  it('fires the due time and computes the next one', () => {
    const plan = planDue('*/5 * * * *', 'UTC', at('2026-01-01T00:05:00Z'), at('2026-01-01T00:04:57Z').getTime(), 60_000);
    expect(plan).toEqual({ fire: at('2026-01-01T00:05:00Z'), recovery: false, missed: [], moreMissed: false, next: at('2026-01-01T00:10:00Z') });
  });

  it('labels a single due time far in the past as a recovery run', () => {
    const plan = planDue('0 0 * * *', 'UTC', at('2026-01-01T00:00:00Z'), at('2026-01-01T03:00:00Z').getTime(), 60_000);
    expect(plan.fire).toEqual(at('2026-01-01T00:00:00Z'));
    expect(plan.recovery).toBe(true);
    expect(plan.next).toEqual(at('2026-01-02T00:00:00Z'));
  });

  it('after an outage fires only the latest due time and lists the missed ones', () => {
    const plan = planDue('*/10 * * * *', 'UTC', at('2026-01-01T00:00:00Z'), at('2026-01-01T00:35:00Z').getTime(), 60_000);
    expect(plan.fire).toEqual(at('2026-01-01T00:30:00Z'));
    expect(plan.missed).toEqual([at('2026-01-01T00:00:00Z'), at('2026-01-01T00:10:00Z'), at('2026-01-01T00:20:00Z')]);
    expect(plan.next).toEqual(at('2026-01-01T00:40:00Z'));
    expect(plan.recovery).toBe(true);
  });

  it('caps the recorded missed due times of a long outage', () => {
    const plan = planDue('* * * * *', 'UTC', at('2026-01-01T00:00:00Z'), at('2026-01-03T00:00:30Z').getTime(), 60_000);
    expect(plan.fire).toEqual(at('2026-01-03T00:00:00Z'));
    expect(plan.missed).toHaveLength(MAX_MISSED_RECORDED);
    expect(plan.moreMissed).toBe(true);
  });
});

describe('planDue in a time zone', () => {
  it('moves a daily 02:30 Berlin job across the spring change to the shifted instant, then back to summer time', () => {
    const plan = planDue('30 2 * * *', 'Europe/Berlin', at('2026-03-28T01:30:00Z'), at('2026-03-28T01:29:58Z').getTime(), 60_000);
    expect(plan.next).toEqual(at('2026-03-29T01:30:00Z'));
    const after = planDue('30 2 * * *', 'Europe/Berlin', at('2026-03-29T01:30:00Z'), at('2026-03-29T01:29:58Z').getTime(), 60_000);
    expect(after.next).toEqual(at('2026-03-30T00:30:00Z'));
  });

  it('after an outage, fires the latest local due time and records the earlier ones as missed', () => {
    const plan = planDue('0 9 * * *', 'America/New_York', at('2026-03-07T14:00:00Z'), at('2026-03-09T15:00:00Z').getTime(), 60_000);
    expect(plan.fire).toEqual(at('2026-03-09T13:00:00Z'));
    expect(plan.missed).toEqual([at('2026-03-07T14:00:00Z'), at('2026-03-08T13:00:00Z')]);
    expect(plan.next).toEqual(at('2026-03-10T13:00:00Z'));
  });
});

describe('latestCronInstant', () => {
  it('finds the latest instant at or before a time, also far back', () => {
    expect(latestCronInstant('*/5 * * * *', at('2026-01-01T00:07:00Z'), 'UTC')).toEqual(at('2026-01-01T00:05:00Z'));
    expect(latestCronInstant('*/5 * * * *', at('2026-01-01T00:05:00Z'), 'UTC')).toEqual(at('2026-01-01T00:05:00Z'));
    expect(latestCronInstant('0 0 1 1 *', at('2026-06-01T00:00:00Z'), 'UTC')).toEqual(at('2026-01-01T00:00:00Z'));
  });
});
