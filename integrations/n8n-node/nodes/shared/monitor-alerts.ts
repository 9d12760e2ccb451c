import type { MonitorEvent } from '../../../../shared/src/notifications/monitor-types';

/** What the trigger can fire on for a heartbeat monitor: it went down, or came back up after being down. */
export const MONITOR_ALERTS = ['down', 'recovered'] as const;
export type MonitorAlert = (typeof MONITOR_ALERTS)[number];

/**
 * What the trigger remembers per monitor in the workflow's static data: the
 * events of the last window it read, and whether the monitor was down after
 * the newest of them.
 */
export interface MonitorWatchState {
  seen: string[];
  down: boolean | null;
}

export interface MonitorAlertMatch {
  event: MonitorAlert;
  entry: MonitorEvent;
}

/** Events carry no id: a kind at a millisecond names one. */
const keyOf = (event: MonitorEvent) => `${event.kind}@${event.at}`;

/** A missed or failed ping leaves the monitor down, a success ping up; a start ping changes nothing. */
const downAfter = (event: MonitorEvent): boolean | null => (event.kind === 'start' ? null : event.kind !== 'success');

/**
 * Compares a monitor's newest events (newest first) with what was seen
 * before. A monitor going down fires once per outage, however many missed or
 * failed pings follow; the first success ping after it fires "recovered". The
 * first look at a monitor only records it, so activating a workflow does not
 * replay old outages. Matches come oldest first.
 */
export function newMonitorAlerts(
  previous: MonitorWatchState | undefined,
  events: readonly MonitorEvent[],
  wanted: readonly MonitorAlert[],
): { matches: MonitorAlertMatch[]; next: MonitorWatchState } {
  const newestState = events.map(downAfter).find((down) => down !== null);
  const next: MonitorWatchState = { seen: events.map(keyOf), down: newestState ?? previous?.down ?? null };
  if (!previous) return { matches: [], next };

  const seen = new Set(previous.seen);
  const matches: MonitorAlertMatch[] = [];
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const entry = events[index];
    const down = downAfter(entry);
    if (seen.has(keyOf(entry)) || down === null) continue;
    const before = stateBefore(events, index, previous.down);
    const event: MonitorAlert | null = down ? (before === true ? null : 'down') : before === true ? 'recovered' : null;
    if (event && wanted.includes(event)) matches.push({ event, entry });
  }
  return { matches, next };
}

/** Whether the monitor was down before the event at `index`: the nearest older event that tells, else the state remembered. */
function stateBefore(events: readonly MonitorEvent[], index: number, remembered: boolean | null): boolean | null {
  for (let older = index + 1; older < events.length; older += 1) {
    const down = downAfter(events[older]);
    if (down !== null) return down;
  }
  return remembered;
}
