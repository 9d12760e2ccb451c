import { latestRunAtOrBefore, nextRun } from '../cron/cron-schedule';
import { DEFAULT_TIME_ZONE } from '../cron/time-zone';

/**
 * A job's schedule in all its forms (docs/adr/0172-schedule-forms.md): a cron
 * expression (5 fields, or 6 with a leading second), a fixed interval anchored
 * to an instant, or one instant; optionally bounded by a start and an end, and
 * shifted by a stable per-job offset (jitter). Pure arithmetic on epoch
 * milliseconds, shared by the API (next_run_at, the preview) and the
 * scheduler, so the two can never disagree.
 */
export interface ScheduleSpec {
  /** Exactly one of cron, everyMs and runAt is set. */
  cron: string | null;
  timeZone: string;
  everyMs: number | null;
  /** Where an interval's instants are counted from (anchor + k × interval, k ≥ 0). */
  anchor: number | null;
  runAt: number | null;
  /** No nominal instant before startsAt or after endsAt. */
  startsAt: number | null;
  endsAt: number | null;
  /** Added to every nominal instant: the job's fixed place within its jitter window. */
  jitterMs: number;
}

export const OVERLAP_POLICIES = ['allow', 'skip'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];
export const CATCH_UP_POLICIES = ['latest', 'none', 'all_within'] as const;
export type CatchUpPolicy = (typeof CATCH_UP_POLICIES)[number];

export const SCHEDULE_LIMITS = {
  /** The longest interval: 30 days. */
  maxEverySeconds: 30 * 86_400,
  maxJitterSeconds: 3_600,
  /** all_within looks back at most a week. */
  maxCatchUpWindowSeconds: 7 * 86_400,
  previewDefaultCount: 5,
  previewMaxCount: 50,
  /** Runs of one job an all_within catch-up fires per claim; the rest follow at the next claims. */
  maxCatchUpRunsPerClaim: 20,
} as const;

/** The window the executions estimate covers. */
export const ESTIMATE_WINDOW_MS = 30 * 86_400_000;
/** Cron runs stepped through for the estimate before the rest of the window is extrapolated. */
const ESTIMATE_SAMPLE = 5_000;

/**
 * A job's fixed offset within its jitter window: a hash of its owner and name
 * (known before the job is saved, so the preview shows the offset it will
 * run with), in whole milliseconds, from 0 up to (not including) the window.
 */
export function jitterOffsetMs(jitterSeconds: number, ownerId: string, name: string): number {
  if (jitterSeconds <= 0) return 0;
  // FNV-1a, 32 bits: cheap, stable across runtimes (the browser has no node:crypto).
  let hash = 0x811c9dc5;
  const text = `${ownerId}\u0000${name.toLowerCase()}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % (jitterSeconds * 1000);
}

/** The first nominal instant (before jitter) strictly after `after`, within the window; null when none is left. */
export function nextNominal(spec: ScheduleSpec, after: number): number | null {
  let at: number | null;
  if (spec.runAt !== null) at = spec.runAt > after ? spec.runAt : null;
  else if (spec.everyMs !== null) {
    const anchor = spec.anchor ?? 0;
    const from = spec.startsAt !== null ? Math.max(after, spec.startsAt - 1) : after;
    at = from < anchor ? anchor : anchor + (Math.floor((from - anchor) / spec.everyMs) + 1) * spec.everyMs;
  } else if (spec.cron !== null) {
    const from = spec.startsAt !== null ? Math.max(after, spec.startsAt - 1) : after;
    at = safeNextCron(spec.cron, from, spec.timeZone);
  } else at = null;
  if (at === null) return null;
  if (spec.startsAt !== null && at < spec.startsAt) return null;
  if (spec.endsAt !== null && at > spec.endsAt) return null;
  return at;
}

/** The first instant the job fires (jitter included) strictly after `after`; null when it never fires again. */
export function nextFire(spec: ScheduleSpec, after: number): number | null {
  const nominal = nextNominal(spec, after - spec.jitterMs);
  return nominal === null ? null : nominal + spec.jitterMs;
}

/** The latest instant the job fires (jitter included) at or before `atOrBefore`; null when none. */
export function latestFire(spec: ScheduleSpec, atOrBefore: number): number | null {
  let until = atOrBefore - spec.jitterMs;
  if (spec.endsAt !== null) until = Math.min(until, spec.endsAt);
  let at: number | null;
  if (spec.runAt !== null) at = spec.runAt <= until ? spec.runAt : null;
  else if (spec.everyMs !== null) {
    const anchor = spec.anchor ?? 0;
    at = until < anchor ? null : anchor + Math.floor((until - anchor) / spec.everyMs) * spec.everyMs;
  } else if (spec.cron !== null) {
    try {
      at = latestRunAtOrBefore(spec.cron, new Date(until), spec.timeZone)?.getTime() ?? null;
    } catch {
      at = null;
    }
  } else at = null;
  if (at === null || (spec.startsAt !== null && at < spec.startsAt)) return null;
  return at + spec.jitterMs;
}

/** The next `count` instants the job fires strictly after `after`. */
export function nextFires(spec: ScheduleSpec, count: number, after: number): number[] {
  const fires: number[] = [];
  for (let at = nextFire(spec, after); at !== null && fires.length < count; at = nextFire(spec, at)) fires.push(at);
  return fires;
}

/**
 * How many times the job runs in the 30 days after `from` (before retries):
 * exact for intervals and one-off runs; for cron, the first ESTIMATE_SAMPLE
 * runs are counted and the rest of the window extrapolated from them.
 */
export function executionsPer30Days(spec: ScheduleSpec, from: number): number {
  const end = from + ESTIMATE_WINDOW_MS;
  if (spec.runAt !== null) {
    const at = nextFire(spec, from);
    return at !== null && at <= end ? 1 : 0;
  }
  if (spec.everyMs !== null) {
    const first = nextFire(spec, from);
    if (first === null || first > end) return 0;
    const last = latestFire(spec, end);
    return last === null || last < first ? 0 : Math.floor((last - first) / spec.everyMs) + 1;
  }
  let count = 0;
  let at = nextFire(spec, from);
  const first = at;
  for (; at !== null && at <= end && count < ESTIMATE_SAMPLE; at = nextFire(spec, at)) count++;
  if (at === null || at > end || first === null) return count;
  // Sampled up to `at`: the same rate over the rest of the window, no further than the schedule's end.
  const until = spec.endsAt !== null ? Math.min(end, spec.endsAt + spec.jitterMs) : end;
  // `count` runs took (at - first) from the first: the first run, then one per average gap up to the end.
  return 1 + Math.floor((until - first) / ((at - first) / count));
}

function safeNextCron(expression: string, after: number, timeZone: string): number | null {
  try {
    return nextRun(expression, new Date(after), timeZone || DEFAULT_TIME_ZONE)?.getTime() ?? null;
  } catch {
    return null;
  }
}
