/** The zone of every job that names none; also the zone the scheduler's own arithmetic runs in. */
export const DEFAULT_TIME_ZONE = 'UTC';

export const TIME_ZONE_MESSAGE = 'Time zone must be an IANA time zone name such as Europe/Berlin or UTC';

let known: Set<string> | null = null;

/** The runtime's list of IANA zone names (its ICU data), plus UTC which some runtimes leave out of the list. */
function knownZones(): Set<string> {
  if (!known) {
    const list = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    known = new Set([DEFAULT_TIME_ZONE, ...list]);
  }
  return known;
}

/** Every zone name the runtime lists, for pickers. */
export function timeZoneNames(): string[] {
  return [...knownZones()].sort();
}

/**
 * True for an IANA zone name the runtime knows: one on its list, or an alias
 * of one (Asia/Kolkata for the listed Asia/Calcutta). Offsets such as +02:00
 * are refused: they have no daylight saving time and are not zone names.
 */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9_+/-]*$/.test(value) || value.length > 64) return false;
  if (knownZones().has(value)) return true;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    // The runtime also accepts other spellings of a listed zone (europe/berlin); only the zone's own spelling is its name.
    if (resolved.toLowerCase() === value.toLowerCase()) return false;
    return knownZones().has(resolved);
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const MINUTE = 60_000;

/** Minutes are the resolution of every offset in use; offsets are cached per zone and UTC minute. */
const offsetCache = new Map<string, number>();
const OFFSET_CACHE_SIZE = 20_000;

/** The zone's offset from UTC in milliseconds at `instant` (positive east of Greenwich). */
export function zoneOffset(timeZone: string, instant: number): number {
  if (timeZone === DEFAULT_TIME_ZONE) return 0;
  const minute = Math.floor(instant / MINUTE) * MINUTE;
  const key = `${timeZone} ${minute}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(minute))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const offset = wall - minute;
  if (offsetCache.size >= OFFSET_CACHE_SIZE) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/** The wall-clock reading in the zone at `instant`, written as if it were a UTC instant (a "floating" time). */
export function toWallTime(timeZone: string, instant: number): number {
  return instant + zoneOffset(timeZone, instant);
}

const DAY = 86_400_000;

/**
 * The instant a wall-clock time in the zone stands for. A time the clocks
 * show twice (autumn) is its first occurrence; a time they skip (spring) is
 * read with the offset in force before the change, which lands it as far
 * after the change as it was after the last valid minute (02:30 in a zone
 * that jumps from 02:00 to 03:00 is 03:30).
 */
export function fromWallTime(timeZone: string, wall: number): number {
  if (timeZone === DEFAULT_TIME_ZONE) return wall;
  const before = zoneOffset(timeZone, wall - DAY);
  const after = zoneOffset(timeZone, wall + DAY);
  const candidates = [wall - before, wall - after].filter((instant) => toWallTime(timeZone, instant) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - before;
}

/** The time of `instant` on the zone's clock, e.g. "2026-03-29 03:30 CEST". */
export function formatInZone(instant: Date, timeZone: string): string {
  const wall = new Date(toWallTime(timeZone, instant.getTime())).toISOString();
  const abbreviation =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  return `${wall.slice(0, 10)} ${wall.slice(11, 16)} ${abbreviation}`;
}
