import { Cron } from 'croner';
import { parseCron, type ParsedCron } from './cron-parse';
import { DEFAULT_TIME_ZONE, fromWallTime, toWallTime, zoneOffset } from './time-zone';

/**
 * The engine for a parsed expression, in UTC. Standard (Vixie) cron rule: when
 * both day fields are restricted a day matches either of them (OR); when
 * either begins with `*` both must match (AND), which for a plain `*` is the
 * same as ignoring it and for `*\/2` keeps its meaning.
 */
function engine(cron: ParsedCron): Cron {
  const domAndDow = cron.dayOfMonth.starred || cron.dayOfWeek.starred;
  return new Cron(cron.normalized, { timezone: 'UTC', mode: cron.second ? '6-part' : '5-part', domAndDow });
}

/** Any expression a job or monitor may hold: where seconds are allowed is for validation to say. */
function parsedOrThrow(expression: string): ParsedCron {
  const result = parseCron(expression, { seconds: true });
  if (!result.ok) throw new Error(`Invalid cron expression '${expression}': ${result.error}`);
  return result.cron;
}

/** Engines of recently used expressions: the scheduler asks about the same few thousand again and again. */
const ENGINE_CACHE_SIZE = 5_000;
const engines = new Map<string, Cron>();

function engineFor(expression: string): Cron {
  let cached = engines.get(expression);
  if (cached) {
    // Re-insert so the least recently used entry is the first one evicted.
    engines.delete(expression);
  } else {
    cached = engine(parsedOrThrow(expression));
    if (engines.size >= ENGINE_CACHE_SIZE) engines.delete(engines.keys().next().value!);
  }
  engines.set(expression, cached);
  return cached;
}

/**
 * The next `count` instants strictly after `from` at which the expression
 * fires on the clocks of `timeZone` (an IANA name, UTC by default). Throws on
 * an invalid expression.
 */
export function nextRuns(expression: string, count: number, from: Date = new Date(), timeZone: string = DEFAULT_TIME_ZONE): Date[] {
  if (timeZone === DEFAULT_TIME_ZONE) return engineFor(expression).nextRuns(count, from);
  const runs: Date[] = [];
  for (let after: Date | null = from; runs.length < count; ) {
    after = nextRun(expression, after, timeZone);
    if (!after) break;
    runs.push(after);
  }
  return runs;
}

/**
 * The last search per expression and zone, kept as the gap it found: the
 * first run strictly after `from` is `next`, so nothing fires in (from, next)
 * and every instant in [from, next) has `next` as its answer too (null, never
 * again: every instant from `from` on). A claim plans thousands of jobs that
 * share an expression with due times milliseconds apart (jitter, runs spread
 * across a second); one search answers them all.
 */
interface KnownGap {
  from: number;
  /** Infinity: the expression never fires after `from`. */
  next: number;
}
const gaps = new Map<string, KnownGap>();

/** The first instant strictly after `from`, or null if the schedule never fires again (e.g. 30 February). */
export function nextRun(expression: string, from: Date = new Date(), timeZone: string = DEFAULT_TIME_ZONE): Date | null {
  const at = from.getTime();
  const key = `${timeZone}\u0000${expression}`;
  const gap = gaps.get(key);
  if (gap && gap.from <= at && at < gap.next) return gap.next === Infinity ? null : new Date(gap.next);
  const next = searchNextRun(expression, from, timeZone);
  // Re-inserted so the least recently searched expression is the first one evicted.
  if (gap) gaps.delete(key);
  else if (gaps.size >= ENGINE_CACHE_SIZE) gaps.delete(gaps.keys().next().value!);
  gaps.set(key, { from: at, next: next === null ? Infinity : next.getTime() });
  return next;
}

/** nextRun without the remembered gaps: a search by the engine every time (exported for the test that compares the two). */
export function searchNextRun(expression: string, from: Date, timeZone: string): Date | null {
  if (timeZone === DEFAULT_TIME_ZONE) return engineFor(expression).nextRun(from) ?? null;
  return nextRunInZone(engineFor(expression), timeZone, from.getTime());
}

/** Runs looked at to find a schedule's shortest gap: a second-level pattern repeats within a minute (60 runs at most). */
const GAP_SAMPLE = 121;

/**
 * The shortest time between two consecutive runs of the expression among its
 * next GAP_SAMPLE runs after `from`, in seconds; a five-field expression runs
 * at most once a minute (60). Infinity when it runs fewer than twice.
 */
export function shortestGapSeconds(expression: string, timeZone: string = DEFAULT_TIME_ZONE, from: Date = new Date()): number {
  if (parsedOrThrow(expression).second === null) return 60;
  const runs = nextRuns(expression, GAP_SAMPLE, from, timeZone);
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < runs.length; i++) shortest = Math.min(shortest, (runs[i].getTime() - runs[i - 1].getTime()) / 1000);
  return shortest;
}

const DAY = 86_400_000;
/** Safety bound on the candidates one search looks at (an hour skipped by the clocks holds at most 60 of them). */
const MAX_CANDIDATES = 10_000;

/** How far the clocks jump forward within a day of `instant` (0 when they do not). */
function gapAround(timeZone: string, instant: number): number {
  return Math.max(0, zoneOffset(timeZone, instant + DAY) - zoneOffset(timeZone, instant - DAY));
}

/**
 * Matches the expression against the zone's wall-clock time (the UTC engine
 * run on wall times), then maps each matching wall time to its instant with
 * fromWallTime: a wall time that occurs twice fires once (its first
 * occurrence), one the clocks skip fires once at the shifted instant. A
 * skipped time maps to later than the following real wall times do, so the
 * search starts one gap early and, once it has a run, still looks one gap
 * further for an earlier instant; the earliest instant after `from` wins and
 * equal instants count once.
 */
function nextRunInZone(engine: Cron, timeZone: string, from: number): Date | null {
  let cursor = new Date(toWallTime(timeZone, from) - gapAround(timeZone, from));
  let best: number | null = null;
  let stopAtWall = Number.POSITIVE_INFINITY;
  for (let i = 0; i < MAX_CANDIDATES; i++) {
    const candidate = engine.nextRun(cursor);
    if (!candidate) break;
    const wall = candidate.getTime();
    if (wall >= stopAtWall) break;
    const instant = fromWallTime(timeZone, wall);
    if (instant > from && (best === null || instant < best)) {
      if (best === null) stopAtWall = wall + gapAround(timeZone, instant) + 1;
      best = instant;
    }
    cursor = candidate;
  }
  return best === null ? null : new Date(best);
}

const HOUR = 3_600_000;

/**
 * The latest instant at or before `atOrBefore` at which the expression fires
 * (null if none in the last ~4 years), found by looking back through widening
 * windows instead of stepping through every instant of a long outage.
 */
export function latestRunAtOrBefore(expression: string, atOrBefore: Date, timeZone: string = DEFAULT_TIME_ZONE): Date | null {
  const end = atOrBefore.getTime();
  for (let window = HOUR; window <= 4 * 366 * 24 * HOUR; window *= 24) {
    let found: Date | null = null;
    for (let t = nextRun(expression, new Date(end - window), timeZone); t && t.getTime() <= end; t = nextRun(expression, t, timeZone)) found = t;
    if (found) return found;
  }
  return null;
}
