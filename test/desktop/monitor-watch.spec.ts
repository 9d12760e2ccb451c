import type { Monitor } from '@cronbeam/shared/notifications/monitor-types';
import { MONITOR_POLL_MS, type MonitorChange, MonitorWatch } from '../../desktop/main/monitors/monitor-watch';
import { ManualTimers } from './support/manual-timers';

const monitor = (id: string, status: Monitor['status'], name = `monitor ${id}`): Monitor => ({
  monitor_id: id,
  name,
  ping_url: `https://cronbeam.example/ping/${id}-token-000000`,
  period_seconds: 60,
  cron_expression: null,
  tags: [],
  time_zone: 'UTC',
  grace_seconds: 0,
  alert_after_misses: 1,
  channel_ids: null,
  status,
  last_ping_at: null,
  last_duration_ms: null,
  due_at: null,
  created_at: '2026-11-23T00:00:00.000Z',
});

/** A watch over a scripted server: `answer` is what the next read returns (or throws). */
function setup() {
  const timers = new ManualTimers();
  let answer: () => Promise<Monitor[]> = async () => [];
  let reads = 0;
  const errors: unknown[] = [];
  const watch = new MonitorWatch({
    list: () => {
      reads += 1;
      return answer();
    },
    timers,
    onError: (error) => errors.push(error),
  });
  const changes: Array<[MonitorChange['kind'], string]> = [];
  watch.onStatusChange((c) => changes.push([c.kind, c.monitor.id]));
  return {
    watch,
    timers,
    changes,
    errors,
    reads: () => reads,
    serve: (...monitors: Monitor[]) => (answer = async () => monitors),
    fail: (error: Error) => (answer = async () => Promise.reject(error)),
  };
}

/** Lets the read started by a timer or refresh() settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('MonitorWatch', () => {
  it('records the first read without changes, then reports down and recovered once each', async () => {
    const t = setup();
    t.serve(monitor('a', 'down'), monitor('b', 'up'));
    t.watch.start();
    await settle();
    expect(t.changes).toEqual([]);
    expect(t.watch.downMonitors().map((m) => m.id)).toEqual(['a']);

    t.serve(monitor('a', 'down'), monitor('b', 'down'), monitor('c', 'down'));
    t.timers.advance(MONITOR_POLL_MS);
    await settle();
    // b went down; c is new since the first read and already down: its outage is news too.
    expect(t.changes).toEqual([
      ['down', 'b'],
      ['down', 'c'],
    ]);

    t.serve(monitor('a', 'up'), monitor('b', 'paused'), monitor('c', 'down'));
    t.timers.advance(MONITOR_POLL_MS);
    await settle();
    expect(t.changes.slice(2)).toEqual([['recovered', 'a']]);
    expect(t.watch.downMonitors().map((m) => m.id)).toEqual(['c']);
  });

  it('reads every period and at once on refresh(), which restarts the period', async () => {
    const t = setup();
    t.watch.start();
    await settle();
    expect(t.reads()).toBe(1);
    expect(t.timers.scheduled).toEqual([MONITOR_POLL_MS]);
    t.timers.advance(MONITOR_POLL_MS - 1);
    expect(t.reads()).toBe(1);
    t.timers.advance(1);
    expect(t.reads()).toBe(2);
    t.timers.advance(10_000);
    await t.watch.refresh();
    expect(t.reads()).toBe(3);
    expect(t.timers.scheduled).toEqual([MONITOR_POLL_MS]);
  });

  it('reports a failed read and keeps what it knew; stop() forgets everything and stops reading', async () => {
    const t = setup();
    t.serve(monitor('a', 'down'));
    t.watch.start();
    await settle();
    t.fail(new Error('offline'));
    t.timers.advance(MONITOR_POLL_MS);
    await settle();
    expect(t.errors).toEqual([new Error('offline')]);
    expect(t.watch.downMonitors().map((m) => m.id)).toEqual(['a']);

    t.watch.stop();
    expect(t.watch.downMonitors()).toEqual([]);
    expect(t.timers.scheduled).toEqual([]);
    // Signed in again: the first read only records, as at start.
    t.serve(monitor('a', 'down'));
    t.watch.start();
    await settle();
    expect(t.changes).toEqual([]);
  });

  it('skips reads while the server is out of reach, keeping its schedule', async () => {
    let reachable = true;
    let reads = 0;
    const timers = new ManualTimers();
    const watch = new MonitorWatch({ list: async () => (reads++, []), timers, reachable: () => reachable });
    watch.start();
    await settle();
    reachable = false;
    timers.advance(MONITOR_POLL_MS * 3);
    await watch.refresh();
    expect(reads).toBe(1);
    expect(timers.scheduled).toEqual([MONITOR_POLL_MS]);
    reachable = true;
    await watch.refresh();
    expect(reads).toBe(2);
  });

  it('drops a read answered after stop()', async () => {
    let release: (monitors: Monitor[]) => void = () => undefined;
    const slow = new Promise<Monitor[]>((resolve) => (release = resolve));
    const watch = new MonitorWatch({ list: () => slow, timers: new ManualTimers() });
    watch.start();
    watch.stop();
    release([monitor('a', 'down')]);
    await settle();
    expect(watch.downMonitors()).toEqual([]);
  });
});
