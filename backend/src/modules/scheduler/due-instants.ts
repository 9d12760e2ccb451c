import { latestCronInstant, nextCronInstant } from './cron-schedule';
import { MAX_MISSED_RECORDED } from './scheduler-settings';

/** What one claim does with a job whose next_run_at has come (or is about to). */
export interface DuePlan {
  /** The instant that fires now. */
  fire: Date;
  /** True when `fire` is so late that the scheduler must have been down: logged as a recovery run. */
  recovery: boolean;
  /** Earlier due times that passed while nothing ran: recorded as missed, not fired (the oldest ones, capped). */
  missed: Date[];
  /** True when more due times were missed than are recorded. */
  moreMissed: boolean;
  /** The job's next due time after `fire`, or null when the expression never fires again. */
  next: Date | null;
}

/**
 * Plans the firing of a job due at `dueAt`. Normally that due time fires and
 * the next one is computed. After an outage (several due times passed), only
 * the latest one fires and the earlier ones are recorded as missed.
 * `recoveryAfterMs`: how late a single due time may be and still count as an
 * ordinary scheduled run. Due times are instants of the expression on the clocks of `timeZone`.
 */
export function planDue(cron: string, timeZone: string, dueAt: Date, now: number, recoveryAfterMs: number): DuePlan {
  const following = nextCronInstant(cron, dueAt, timeZone);
  if (!following || following.getTime() > now) {
    return { fire: dueAt, recovery: now - dueAt.getTime() > recoveryAfterMs, missed: [], moreMissed: false, next: following };
  }
  const fire = latestCronInstant(cron, new Date(now), timeZone) ?? following;
  const missed: Date[] = [];
  for (let t: Date | null = dueAt; t && t < fire; t = nextCronInstant(cron, t, timeZone)) {
    if (missed.length === MAX_MISSED_RECORDED) return { fire, recovery: true, missed, moreMissed: true, next: nextCronInstant(cron, fire, timeZone) };
    missed.push(t);
  }
  return { fire, recovery: true, missed, moreMissed: false, next: nextCronInstant(cron, fire, timeZone) };
}
