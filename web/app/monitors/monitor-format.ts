import { describeCron } from '@cronbeam/shared/cron';
import type { Monitor } from '@cronbeam/shared/notifications/monitors';

/** The units the form offers for a period or grace time, in seconds. */
export const UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 } as const;
export type Unit = keyof typeof UNITS;

/** A number of seconds in the largest unit that divides it: 7200 → 2 hours. */
export function splitSeconds(seconds: number): { value: number; unit: Unit } {
  for (const unit of ['days', 'hours', 'minutes'] as const) {
    if (seconds > 0 && seconds % UNITS[unit] === 0) return { value: seconds / UNITS[unit], unit };
  }
  return { value: seconds, unit: 'seconds' };
}

/** "2 hours", "1 minute", "90 seconds". */
export function formatSeconds(seconds: number): string {
  const { value, unit } = splitSeconds(seconds);
  return `${value} ${value === 1 ? unit.slice(0, -1) : unit}`;
}

/** The expected schedule in words: "every 1 hour" or "At 02:30 (Europe/Berlin)". */
export function describeSchedule(monitor: Pick<Monitor, 'period_seconds' | 'cron_expression' | 'time_zone'>): string {
  if (monitor.cron_expression) return `${describeCron(monitor.cron_expression)} (${monitor.time_zone})`;
  return `every ${formatSeconds(monitor.period_seconds ?? 0)}`;
}

/** Ping URL variants: success, explicit failure, and the start of a run. */
export function pingUrls(monitor: Pick<Monitor, 'ping_url'>): Array<{ label: string; url: string }> {
  return [
    { label: 'Success', url: monitor.ping_url },
    { label: 'Failure', url: `${monitor.ping_url}/fail` },
    { label: 'Start', url: `${monitor.ping_url}/start` },
  ];
}
