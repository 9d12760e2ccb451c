import { z } from 'zod';
import { cronError } from '../cron/cron-parse';
import { nextRun } from '../cron/cron-schedule';
import { DEFAULT_TIME_ZONE, isTimeZone, TIME_ZONE_MESSAGE } from '../cron/time-zone';
import { tagSchema } from '../tags/tags';

/**
 * Maintenance windows: spans of time in which a job's failure alerts are
 * muted (and, with pause_runs, its scheduled runs are skipped). A window
 * targets one job, every job carrying a tag, or the whole account, and is
 * either one-off (starts_at to ends_at) or recurring (a cron expression that
 * starts it and a duration, on the clocks of a time zone).
 */
export const MAINTENANCE_LIMITS = {
  windowsPerAccount: 50,
  nameMaxLength: 80,
  /** A recurring window lasts at most a week (longer ones would overlap their next start). */
  maxDurationMinutes: 7 * 24 * 60,
  /** A one-off window lasts at most a year. */
  maxOneOffDays: 366,
} as const;

export const MAINTENANCE_MESSAGES = {
  name: `name must be 1 to ${MAINTENANCE_LIMITS.nameMaxLength} characters`,
  scope: 'Give at most one of job_id or tag (neither: every job of the account)',
  jobId: 'job_id must be the id of one of your jobs, or null',
  unknownJob: 'job_id names a job that is not yours',
  timing: 'Give either starts_at and ends_at (one-off) or cron_expression and duration_minutes (recurring)',
  startsAt: 'starts_at must be an ISO 8601 date and time with a zone offset, or null',
  endsAt: `ends_at must be an ISO 8601 date and time after starts_at, at most ${MAINTENANCE_LIMITS.maxOneOffDays} days later, or null`,
  duration: `duration_minutes must be a whole number from 1 to ${MAINTENANCE_LIMITS.maxDurationMinutes}, or null`,
  cron: 'cron_expression must be a five-field cron expression, or null',
  timeZone: TIME_ZONE_MESSAGE,
  pauseRuns: 'pause_runs must be true or false',
  limit: `An account has at most ${MAINTENANCE_LIMITS.windowsPerAccount} maintenance windows`,
  notFound: 'Maintenance window not found',
} as const;

const strictObject = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) });

const instant = (message: string) => z.iso.datetime({ offset: true, error: message }).nullable().default(null);

/** A window definition, for create and for update (PUT replaces it whole). */
export const maintenanceWindowSchema = strictObject({
  name: z.string({ error: MAINTENANCE_MESSAGES.name }).trim().min(1, MAINTENANCE_MESSAGES.name).max(MAINTENANCE_LIMITS.nameMaxLength, MAINTENANCE_MESSAGES.name),
  job_id: z.string({ error: MAINTENANCE_MESSAGES.jobId }).min(1, MAINTENANCE_MESSAGES.jobId).max(100, MAINTENANCE_MESSAGES.jobId).nullable().default(null),
  tag: tagSchema.nullable().default(null),
  starts_at: instant(MAINTENANCE_MESSAGES.startsAt),
  ends_at: instant(MAINTENANCE_MESSAGES.endsAt),
  cron_expression: z
    .string({ error: MAINTENANCE_MESSAGES.cron })
    .transform((value) => value.trim().split(/\s+/).join(' '))
    .nullable()
    .default(null),
  duration_minutes: z
    .number({ error: MAINTENANCE_MESSAGES.duration })
    .int(MAINTENANCE_MESSAGES.duration)
    .min(1, MAINTENANCE_MESSAGES.duration)
    .max(MAINTENANCE_LIMITS.maxDurationMinutes, MAINTENANCE_MESSAGES.duration)
    .nullable()
    .default(null),
  time_zone: z
    .string({ error: MAINTENANCE_MESSAGES.timeZone })
    .refine((value) => isTimeZone(value), MAINTENANCE_MESSAGES.timeZone)
    .default(DEFAULT_TIME_ZONE),
  /** Scheduled runs due inside the window are recorded as skipped instead of being sent. */
  pause_runs: z.boolean({ error: MAINTENANCE_MESSAGES.pauseRuns }).default(false),
}).superRefine((w, ctx) => {
  if (w.job_id !== null && w.tag !== null) ctx.addIssue({ code: 'custom', message: MAINTENANCE_MESSAGES.scope, path: ['tag'] });
  const oneOff = w.starts_at !== null || w.ends_at !== null;
  const recurring = w.cron_expression !== null || w.duration_minutes !== null;
  if (oneOff === recurring) {
    ctx.addIssue({ code: 'custom', message: MAINTENANCE_MESSAGES.timing, path: [oneOff ? 'cron_expression' : 'starts_at'] });
    return;
  }
  if (oneOff) {
    if (w.starts_at === null) ctx.addIssue({ code: 'custom', message: MAINTENANCE_MESSAGES.startsAt, path: ['starts_at'] });
    const span = w.starts_at !== null && w.ends_at !== null ? Date.parse(w.ends_at) - Date.parse(w.starts_at) : NaN;
    if (!(span > 0 && span <= MAINTENANCE_LIMITS.maxOneOffDays * 86_400_000)) ctx.addIssue({ code: 'custom', message: MAINTENANCE_MESSAGES.endsAt, path: ['ends_at'] });
    return;
  }
  if (w.cron_expression === null || cronError(w.cron_expression) !== null) ctx.addIssue({ code: 'custom', message: MAINTENANCE_MESSAGES.cron, path: ['cron_expression'] });
  if (w.duration_minutes === null) ctx.addIssue({ code: 'custom', message: MAINTENANCE_MESSAGES.duration, path: ['duration_minutes'] });
});
export type MaintenanceWindowDefinition = z.infer<typeof maintenanceWindowSchema>;

/** A maintenance window as the API answers it. Times are ISO 8601 strings in UTC. */
export interface MaintenanceWindow {
  window_id: string;
  name: string;
  /** The one job it covers; null with tag null: every job of the account. */
  job_id: string | null;
  /** Every job carrying this tag (now and later). */
  tag: string | null;
  /** One-off windows: from starts_at (inclusive) to ends_at (exclusive). */
  starts_at: string | null;
  ends_at: string | null;
  /** Recurring windows: each instant the expression fires (on time_zone's clocks) opens one lasting duration_minutes. */
  cron_expression: string | null;
  duration_minutes: number | null;
  time_zone: string;
  pause_runs: boolean;
  /** Whether the window is open at the time of the answer. */
  active: boolean;
  created_at: string;
}

/** What decides when a window is open. */
export type WindowTiming = Pick<MaintenanceWindow, 'starts_at' | 'ends_at' | 'cron_expression' | 'duration_minutes' | 'time_zone'>;

/**
 * Whether the window is open at `at`: a one-off window on [starts_at,
 * ends_at); a recurring one on [start, start + duration) for each start its
 * expression fires on the zone's clocks. A start lies in that span exactly
 * when the first start strictly after `at - duration` is not after `at`.
 */
export function windowCovers(window: WindowTiming, at: Date): boolean {
  const t = at.getTime();
  if (window.cron_expression !== null && window.duration_minutes !== null) {
    const start = nextRun(window.cron_expression, new Date(t - window.duration_minutes * 60_000), window.time_zone);
    return start !== null && start.getTime() <= t;
  }
  if (window.starts_at === null || window.ends_at === null) return false;
  return Date.parse(window.starts_at) <= t && t < Date.parse(window.ends_at);
}

/** Whether the window targets a job with this id and these tags. */
export function windowTargets(window: Pick<MaintenanceWindow, 'job_id' | 'tag'>, job: { job_id: string; tags: readonly string[] }): boolean {
  if (window.job_id !== null) return window.job_id === job.job_id;
  if (window.tag !== null) return job.tags.includes(window.tag);
  return true;
}

/** What a job's log says of an alert a window held back. */
export const mutedNote = (windowName: string) => `Alert muted by maintenance window "${windowName}"`;
/** What a run skipped by a pausing window says. */
export const pausedNote = (windowName: string) => `Skipped: paused by maintenance window "${windowName}"`;
