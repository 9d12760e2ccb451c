import type { ParsedCron } from '@cronbeam/shared/cron';

const DAY_MS = 86_400_000;

/**
 * How many times a schedule fires after `from` and up to `until` (UTC).
 * Counting day by day: listing every instant with the engine takes seconds for
 * an every-minute job over a month, this takes milliseconds. The day rule is
 * standard cron's, as the scheduler's engine applies it: when either day field
 * starts with `*` a day must match both, otherwise either.
 */
export function countRuns(cron: ParsedCron, from: Date, until: Date): number {
  const months = new Set(cron.month.values);
  const monthDays = new Set(cron.dayOfMonth.values);
  const weekDays = new Set(cron.dayOfWeek.values);
  const both = cron.dayOfMonth.starred || cron.dayOfWeek.starred;
  const slotsPerDay = cron.hour.values.length * cron.minute.values.length;
  const start = from.getTime();
  const end = until.getTime();
  let count = 0;
  for (let day = Math.floor(start / DAY_MS) * DAY_MS; day <= end; day += DAY_MS) {
    const date = new Date(day);
    if (!months.has(date.getUTCMonth() + 1)) continue;
    const domMatch = monthDays.has(date.getUTCDate());
    const dowMatch = weekDays.has(date.getUTCDay());
    if (both ? !(domMatch && dowMatch) : !(domMatch || dowMatch)) continue;
    if (day > start && day + DAY_MS - 1 <= end) {
      count += slotsPerDay;
      continue;
    }
    // First or last day of the window: only the instants inside it.
    for (const hour of cron.hour.values) {
      for (const minute of cron.minute.values) {
        const at = day + hour * 3_600_000 + minute * 60_000;
        if (at > start && at <= end) count += 1;
      }
    }
  }
  return count;
}
