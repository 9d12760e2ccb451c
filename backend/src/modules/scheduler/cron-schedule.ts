import { Cron } from 'croner';

// TODO(jobs engineer): switch both helpers to shared/src/cron once it lands, so the
// API's next_run_at and the scheduler can never disagree.

function cron(expression: string): Cron {
  return new Cron(expression, { timezone: 'UTC', paused: true });
}

/** The next instant strictly after `after` at which a 5-field UTC cron expression fires, or null if never. */
export function nextCronInstant(expression: string, after: Date): Date | null {
  return cron(expression).nextRun(after);
}

/** The latest instant at or before `atOrBefore` at which the expression fires, or null. */
export function latestCronInstant(expression: string, atOrBefore: Date): Date | null {
  return cron(expression).previousRuns(1, new Date(atOrBefore.getTime() + 1))[0] ?? null;
}
