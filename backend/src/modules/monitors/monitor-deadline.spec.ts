import { deadline } from './monitor-deadline';

const at = (iso: string) => new Date(iso);

describe('monitor deadline', () => {
  it('is one period plus the grace time after the ping', () => {
    expect(deadline({ period_seconds: 3600, cron_expression: null, time_zone: 'UTC', grace_seconds: 60 }, at('2026-03-01T10:00:00Z'))).toEqual(at('2026-03-01T11:01:00Z'));
  });

  it('is the cron expression’s next instant plus grace, read in the monitor’s time zone', () => {
    const nightly = { period_seconds: null, cron_expression: '30 2 * * *', time_zone: 'Europe/Berlin', grace_seconds: 600 };
    // Winter (UTC+1): 02:30 Berlin is 01:30 UTC.
    expect(deadline(nightly, at('2026-01-10T01:31:00Z'))).toEqual(at('2026-01-11T01:40:00Z'));
    // Summer (UTC+2): 00:30 UTC.
    expect(deadline(nightly, at('2026-07-10T00:31:00Z'))).toEqual(at('2026-07-11T00:40:00Z'));
    // 29 March 2026: 02:30 does not exist in Berlin; the run (and so the expected ping) moves to the shifted instant, 03:30 CEST = 01:30 UTC.
    expect(deadline(nightly, at('2026-03-28T01:31:00Z'))).toEqual(at('2026-03-29T01:40:00Z'));
  });

  it('expects a ping at each instant of a frequent schedule', () => {
    const everyFive = { period_seconds: null, cron_expression: '*/5 * * * *', time_zone: 'UTC', grace_seconds: 30 };
    expect(deadline(everyFive, at('2026-05-05T10:00:02Z'))).toEqual(at('2026-05-05T10:05:30Z'));
  });
});
