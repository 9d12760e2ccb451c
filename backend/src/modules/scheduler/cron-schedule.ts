import { nextRun } from '@cronbeam/shared/cron/cron-schedule';

/**
 * The scheduler's view of cron, on the same shared helpers the API uses for
 * next_run_at, so the two can never disagree. An expression the helpers
 * reject (only possible for rows written outside the API) never fires.
 */
export function nextCronInstant(expression: string, after: Date, timeZone: string): Date | null {
  try {
    return nextRun(expression, after, timeZone);
  } catch {
    return null;
  }
}

const HOUR = 3_600_000;

/**
 * The latest instant at or before `atOrBefore` at which the expression fires
 * (null if none in the last ~years), found by looking back through widening
 * windows instead of stepping through every missed instant of a long outage.
 */
export function latestCronInstant(expression: string, atOrBefore: Date, timeZone: string): Date | null {
  const end = atOrBefore.getTime();
  for (let window = HOUR; window <= 4 * 366 * 24 * HOUR; window *= 24) {
    let found: Date | null = null;
    for (let t = nextCronInstant(expression, new Date(end - window), timeZone); t && t.getTime() <= end; t = nextCronInstant(expression, t, timeZone)) {
      found = t;
    }
    if (found) return found;
  }
  return null;
}
