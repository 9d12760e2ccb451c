const dateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

const shortDateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A compact UTC time for chart axes: "22 Nov, 12:11". */
export function formatUtcShort(value: string | Date): string {
  return shortDateTime.format(value instanceof Date ? value : new Date(value));
}

/** A time as the dashboard shows it: always UTC, like the schedules. */
export function formatUtc(value: string | Date | null | undefined, empty = '—'): string {
  if (!value) return empty;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? empty : `${dateTime.format(date)} UTC`;
}

/** Today's date for the dashboard header, in the user's own words and zone. */
export function formatToday(now: Date = new Date()): string {
  return now.toLocaleDateString(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
}

/** A number with thousands separators. */
export function formatCount(value: number | null | undefined): string {
  return (value ?? 0).toLocaleString('en-US');
}
