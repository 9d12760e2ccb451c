/**
 * The run history of a job or a monitor as status pages and badges read it,
 * computed by the owning module's repository in one aggregate query each.
 */

/** Outcomes of one subject (job or monitor) on one UTC day (days since the epoch). */
export interface OutcomeDay {
  subjectId: string;
  day: number;
  ok: number;
  failed: number;
}

/** A failure episode: failed outcomes in a row, ended by the next success (null while it lasts). */
export interface FailureEpisode {
  subjectId: string;
  startedAt: Date;
  resolvedAt: Date | null;
  failures: number;
}

/** The UTC day (days since the epoch) an instant falls on. */
export function epochDay(at: Date | number): number {
  return Math.floor(+at / 86_400_000);
}
