import { latestFire, nextFire, SCHEDULE_LIMITS, type CatchUpPolicy, type ScheduleSpec } from '@cronbeam/shared/jobs/schedule';
import { MAX_MISSED_RECORDED } from './scheduler-settings';

/** A job's choice of what fires of the due times it missed (docs/adr/0172-schedule-forms.md). */
export interface CatchUp {
  policy: CatchUpPolicy;
  /** all_within: how far back from now a missed due time still fires. */
  windowMs: number | null;
}

export const LATEST: CatchUp = { policy: 'latest', windowMs: null };

/** What one claim does with a job whose next_run_at has come (or is about to). */
export interface DuePlan {
  /** The instants that fire now, oldest first; `recovery` when one is so late that the scheduler must have been down. */
  fires: Array<{ at: Date; recovery: boolean }>;
  /** Earlier due times that passed while nothing ran: recorded as missed, not fired (the oldest ones, capped). */
  missed: Date[];
  /** Why they were not fired, for their log lines. */
  missedReason: string;
  /** True when more due times were missed than are recorded. */
  moreMissed: boolean;
  /** The job's next due time after what this claim handles (it may still be past: an all_within catch-up goes on at the next claim); null when none is left. */
  next: Date | null;
}

const MISSED_REASON: Record<CatchUpPolicy, string> = {
  latest: 'Missed: the scheduler was not running at this due time; only the latest missed due time was executed',
  none: 'Missed: the scheduler was not running at this due time, and the job catches up nothing (catch_up: none)',
  all_within: 'Missed: the scheduler was not running at this due time, which is older than the job catches up (catch_up_window_seconds)',
};

/**
 * Plans the firing of a job due at `dueAt` (jitter included). Normally that
 * due time fires and the next one is computed. A due time later than
 * `recoveryAfterMs` (how late one may be and still count as an ordinary
 * scheduled run), or several passed at once, means an outage: the job's
 * catch-up policy decides what fires. latest: the latest due time fires, the
 * earlier ones are recorded as missed. none: nothing late fires (a due time
 * still on time does), the rest are missed. all_within: every due time within
 * the window before now fires, oldest first, at most maxCatchUpRunsPerClaim a
 * claim (the next claim goes on); older ones are missed.
 */
export function planDue(spec: ScheduleSpec, catchUp: CatchUp, dueAt: Date, now: number, recoveryAfterMs: number): DuePlan {
  const due = dueAt.getTime();
  const following = nextFire(spec, due);
  const isLate = (at: number) => now - at > recoveryAfterMs;
  const plan = (fires: number[], missed: Date[], moreMissed: boolean, next: number | null): DuePlan => ({
    fires: fires.map((at) => ({ at: new Date(at), recovery: isLate(at) })),
    missed,
    missedReason: MISSED_REASON[catchUp.policy],
    moreMissed,
    next: next === null ? null : new Date(next),
  });
  // Due times from `from` while `keep` holds, capped for the log: the oldest MAX_MISSED_RECORDED.
  const collect = (from: number | null, keep: (at: number) => boolean) => {
    const list: Date[] = [];
    let at = from;
    for (; at !== null && keep(at); at = nextFire(spec, at)) {
      if (list.length === MAX_MISSED_RECORDED) return { list, more: true };
      list.push(new Date(at));
    }
    return { list, more: false };
  };

  if (catchUp.policy === 'all_within' && catchUp.windowMs !== null) {
    const windowStart = now - catchUp.windowMs;
    const missed = collect(due, (at) => at < windowStart && at <= now);
    const first = due >= windowStart ? due : nextFire(spec, windowStart - 1);
    const fires: number[] = [];
    let at = first;
    // Passed due times, and the claimed one itself when it is not due yet (a claim runs ahead of its instants).
    for (; at !== null && (at <= now || at === due) && fires.length < SCHEDULE_LIMITS.maxCatchUpRunsPerClaim; at = nextFire(spec, at)) fires.push(at);
    return plan(fires, missed.list, missed.more, at);
  }

  if (!following || following > now) {
    if (catchUp.policy === 'none' && isLate(due)) return plan([], [dueAt], false, following);
    return plan([due], [], false, following);
  }

  const latest = latestFire(spec, now) ?? following;
  if (catchUp.policy === 'none') {
    const fires = isLate(latest) ? [] : [latest];
    const missed = collect(due, (at) => (fires.length ? at < latest : at <= latest));
    return plan(fires, missed.list, missed.more, nextFire(spec, latest));
  }
  const missed = collect(due, (at) => at < latest);
  return plan([latest], missed.list, missed.more, nextFire(spec, latest));
}
