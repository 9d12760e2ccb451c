import type { MonitorEvent, MonitorEventKind } from '../../shared/src/notifications/monitor-types';
import { newMonitorAlerts, type MonitorWatchState } from '../../integrations/n8n-node/nodes/shared/monitor-alerts';

/** Events newest first, as the API answers them, one minute apart. */
const history = (...kinds: MonitorEventKind[]): MonitorEvent[] =>
  kinds.map((kind, i) => ({ kind, at: new Date(Date.UTC(2026, 0, 1, 0, 60 - i)).toISOString(), duration_ms: null }));

const alerts = (previous: MonitorWatchState | undefined, window: MonitorEvent[], wanted = ['down', 'recovered'] as const) => newMonitorAlerts(previous, window, wanted);
const fired = (result: ReturnType<typeof alerts>) => result.matches.map((m) => [m.event, m.entry.kind, m.entry.at]);

describe('trigger monitor alerts', () => {
  it('records the first look without firing, remembering whether the monitor is down', () => {
    const window = history('start', 'missed', 'success');
    expect(alerts(undefined, window)).toEqual({ matches: [], next: { seen: window.map((e) => `${e.kind}@${e.at}`), down: true } });
  });

  it('fires once per outage: the first missed or failed ping, then the success that ends it', () => {
    // Newest first: the success that ends it, a start, then fail, missed, missed (the outage begins), after a success already seen.
    const window = history('success', 'start', 'fail', 'missed', 'missed', 'success');
    const previous: MonitorWatchState = { seen: [`success@${window[5].at}`], down: false };
    const result = alerts(previous, window);
    expect(fired(result)).toEqual([
      ['down', 'missed', window[4].at],
      ['recovered', 'success', window[0].at],
    ]);
    expect(result.next.down).toBe(false);
    // Seen events do not fire again.
    expect(fired(alerts(result.next, window))).toEqual([]);
  });

  it('continues an outage across polls: a monitor remembered down fires only when it recovers', () => {
    const down: MonitorWatchState = { seen: [], down: true };
    expect(fired(alerts(down, history('fail', 'missed')))).toEqual([]);
    const recovered = history('success');
    expect(fired(alerts(down, recovered))).toEqual([['recovered', 'success', recovered[0].at]]);
  });

  it('fires only what is asked for, and nothing for start pings', () => {
    const up: MonitorWatchState = { seen: [], down: false };
    const window = history('success', 'fail', 'start');
    expect(fired(alerts(up, window, ['down'] as never))).toEqual([['down', 'fail', window[1].at]]);
    expect(fired(alerts(up, window, ['recovered'] as never))).toEqual([['recovered', 'success', window[0].at]]);
    expect(alerts(up, history('start')).next).toEqual({ seen: [expect.stringMatching(/^start@/)], down: false });
  });

  it('treats a monitor first seen after activation as new: its first outage fires', () => {
    const fresh: MonitorWatchState = { seen: [], down: null };
    const window = history('missed', 'success');
    expect(fired(alerts(fresh, window))).toEqual([['down', 'missed', window[0].at]]);
  });
});
