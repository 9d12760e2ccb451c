import { latestCronInstant } from './cron-schedule';
import { planDue } from './due-instants';
import { MAX_MISSED_RECORDED } from './scheduler-settings';

const at = (iso: string) => new Date(iso);

describe('planDue', () => {
  it('fires the due time and computes the next one', () => {
    const plan = planDue('*/5 * * * *', at('2026-01-01T00:05:00Z'), at('2026-01-01T00:04:57Z').getTime(), 60_000);
    expect(plan).toEqual({ fire: at('2026-01-01T00:05:00Z'), recovery: false, missed: [], moreMissed: false, next: at('2026-01-01T00:10:00Z') });
  });

  it('labels a single due time far in the past as a recovery run', () => {
    const plan = planDue('0 0 * * *', at('2026-01-01T00:00:00Z'), at('2026-01-01T03:00:00Z').getTime(), 60_000);
    expect(plan.fire).toEqual(at('2026-01-01T00:00:00Z'));
    expect(plan.recovery).toBe(true);
    expect(plan.next).toEqual(at('2026-01-02T00:00:00Z'));
  });

  it('after an outage fires only the latest due time and lists the missed ones', () => {
    const plan = planDue('*/10 * * * *', at('2026-01-01T00:00:00Z'), at('2026-01-01T00:35:00Z').getTime(), 60_000);
    expect(plan.fire).toEqual(at('2026-01-01T00:30:00Z'));
    expect(plan.missed).toEqual([at('2026-01-01T00:00:00Z'), at('2026-01-01T00:10:00Z'), at('2026-01-01T00:20:00Z')]);
    expect(plan.next).toEqual(at('2026-01-01T00:40:00Z'));
    expect(plan.recovery).toBe(true);
  });

  it('caps the recorded missed due times of a long outage', () => {
    const plan = planDue('* * * * *', at('2026-01-01T00:00:00Z'), at('2026-01-03T00:00:30Z').getTime(), 60_000);
    expect(plan.fire).toEqual(at('2026-01-03T00:00:00Z'));
    expect(plan.missed).toHaveLength(MAX_MISSED_RECORDED);
    expect(plan.moreMissed).toBe(true);
  });
});

describe('latestCronInstant', () => {
  it('finds the latest instant at or before a time, also far back', () => {
    expect(latestCronInstant('*/5 * * * *', at('2026-01-01T00:07:00Z'))).toEqual(at('2026-01-01T00:05:00Z'));
    expect(latestCronInstant('*/5 * * * *', at('2026-01-01T00:05:00Z'))).toEqual(at('2026-01-01T00:05:00Z'));
    expect(latestCronInstant('0 0 1 1 *', at('2026-06-01T00:00:00Z'))).toEqual(at('2026-01-01T00:00:00Z'));
  });
});
