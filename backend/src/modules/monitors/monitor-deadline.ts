import { nextRun } from '@cronbeam/shared/cron';

/** The parts of a monitor's definition that say when its next ping is due. */
export interface MonitorSchedule {
  period_seconds: number | null;
  cron_expression: string | null;
  time_zone: string;
  grace_seconds: number;
}

/**
 * When a monitor pinged at `pingedAt` goes down without another ping: one
 * period later, or at the cron expression's next instant (in its time zone),
 * plus the grace time. Null for a cron schedule that never fires again.
 */
export function deadline(schedule: MonitorSchedule, pingedAt: Date): Date | null {
  const graceMs = schedule.grace_seconds * 1000;
  if (schedule.cron_expression) {
    const next = nextRun(schedule.cron_expression, pingedAt, schedule.time_zone);
    return next ? new Date(next.getTime() + graceMs) : null;
  }
  return new Date(pingedAt.getTime() + (schedule.period_seconds ?? 0) * 1000 + graceMs);
}
