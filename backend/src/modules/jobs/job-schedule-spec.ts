import { nextFire, type ScheduleSpec } from '@cronbeam/shared/jobs/schedule';
import type { JobEntity } from './job.entity';

/** A job's stored schedule columns, as the entity and the scheduler's rows hold them. */
export interface ScheduleColumns {
  cron_expression: string | null;
  time_zone: string;
  every_seconds: number | null;
  schedule_anchor: Date | null;
  run_at: Date | null;
  starts_at: Date | null;
  ends_at: Date | null;
  jitter_offset_ms: number;
}

const ms = (date: Date | string | null) => (date === null ? null : new Date(date).getTime());

/** The schedule arithmetic's view of a job's stored columns. */
export function scheduleSpecOf(row: ScheduleColumns): ScheduleSpec {
  return {
    cron: row.cron_expression,
    timeZone: row.time_zone,
    everyMs: row.every_seconds === null ? null : row.every_seconds * 1000,
    anchor: ms(row.schedule_anchor),
    runAt: ms(row.run_at),
    startsAt: ms(row.starts_at),
    endsAt: ms(row.ends_at),
    jitterMs: row.jitter_offset_ms ?? 0,
  };
}

/** A key that is equal for two jobs exactly when their schedules are: the scheduler plans such jobs once per claim. */
export function scheduleKey(row: ScheduleColumns): string {
  return [row.cron_expression, row.time_zone, row.every_seconds, ms(row.schedule_anchor), ms(row.run_at), ms(row.starts_at), ms(row.ends_at), row.jitter_offset_ms].join(' ');
}

/** Runs of a job with this schedule, from the stored columns, strictly after `after`: the next due instant, or null when none is left. */
export function nextDueOf(row: ScheduleColumns, after: Date): Date | null {
  const at = nextFire(scheduleSpecOf(row), after.getTime());
  return at === null ? null : new Date(at);
}

/**
 * Where a resumed job's schedule starts again. A pause is treated like an
 * outage of that one job: with catch_up all_within, the due times that fell
 * within the window before the resume (and after its last run) are due at
 * once, and the claim fires them as catch-up runs; latest and none start at
 * the next due time (a resume never replayed runs before these policies).
 */
export function resumeDueOf(row: ScheduleColumns & { catch_up: string; catch_up_window_seconds: number | null; last_run_at: Date | null }, now: Date): Date | null {
  if (row.catch_up === 'all_within' && row.catch_up_window_seconds !== null) {
    const from = Math.max(now.getTime() - row.catch_up_window_seconds * 1000, row.last_run_at ? new Date(row.last_run_at).getTime() : -Infinity);
    return nextDueOf(row, new Date(from));
  }
  return nextDueOf(row, now);
}

/** An entity's schedule, as the scheduler's rows name it. */
export function scheduleColumnsOf(job: Pick<JobEntity, 'cronExpression' | 'timeZone' | 'everySeconds' | 'scheduleAnchor' | 'runAt' | 'startsAt' | 'endsAt' | 'jitterOffsetMs' | 'catchUp' | 'catchUpWindowSeconds' | 'lastRunAt'>) {
  return {
    cron_expression: job.cronExpression,
    time_zone: job.timeZone,
    every_seconds: job.everySeconds,
    schedule_anchor: job.scheduleAnchor,
    run_at: job.runAt,
    starts_at: job.startsAt,
    ends_at: job.endsAt,
    jitter_offset_ms: job.jitterOffsetMs,
    catch_up: job.catchUp,
    catch_up_window_seconds: job.catchUpWindowSeconds,
    last_run_at: job.lastRunAt,
  };
}
