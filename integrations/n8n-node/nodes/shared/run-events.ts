import type { JobLogEntry, RunOutcome } from '../../../../shared/src/jobs/job-types';

/** What the trigger can fire on: a failed run, a successful one, or the first success after a failure. */
export const RUN_EVENTS = ['failed', 'succeeded', 'recovered'] as const;
export type RunEvent = (typeof RUN_EVENTS)[number];

/**
 * What the trigger remembers per job in the workflow's static data (which n8n
 * saves with the workflow, so it survives a restart): the run ids of the last
 * log window it read, and the outcome of the newest run that executed.
 */
export interface JobWatchState {
  seen: string[];
  lastOutcome: 'success' | 'failed' | null;
}

export interface RunEventMatch {
  event: RunEvent;
  entry: JobLogEntry;
}

const executed = (status: RunOutcome): status is 'success' | 'failed' => status === 'success' || status === 'failed';

/**
 * Compares a job's newest log window (newest first) with what was seen
 * before. Runs are told apart by id, not by time: a long run can finish, and
 * so appear, after a later one. The first look at a job only records it, so
 * activating a workflow does not replay old failures. Skipped and missed runs
 * never executed: they fire nothing and do not break a failure streak.
 * Matches come oldest first, as the runs happened.
 */
export function newRunEvents(
  previous: JobWatchState | undefined,
  logs: readonly JobLogEntry[],
  wanted: readonly RunEvent[],
): { matches: RunEventMatch[]; next: JobWatchState } {
  const newestOutcome = logs.find((entry) => executed(entry.status))?.status as JobWatchState['lastOutcome'] | undefined;
  const next: JobWatchState = { seen: logs.map((entry) => entry.run_id), lastOutcome: newestOutcome ?? previous?.lastOutcome ?? null };
  if (!previous) return { matches: [], next };

  const seen = new Set(previous.seen);
  const matches: RunEventMatch[] = [];
  for (let index = logs.length - 1; index >= 0; index -= 1) {
    const entry = logs[index];
    if (seen.has(entry.run_id) || !executed(entry.status)) continue;
    const event = classify(entry.status, outcomeBefore(logs, index, previous.lastOutcome), wanted);
    if (event) matches.push({ event, entry });
  }
  return { matches, next };
}

/** The outcome of the nearest older run that executed; past the window, the one remembered. */
function outcomeBefore(logs: readonly JobLogEntry[], index: number, remembered: JobWatchState['lastOutcome']): JobWatchState['lastOutcome'] {
  for (let older = index + 1; older < logs.length; older += 1) {
    const status = logs[older].status;
    if (executed(status)) return status;
  }
  return remembered;
}

/** A success after a failure is a recovery; it fires as "succeeded" only when recoveries are not asked for. */
function classify(status: 'success' | 'failed', before: JobWatchState['lastOutcome'], wanted: readonly RunEvent[]): RunEvent | null {
  if (status === 'failed') return wanted.includes('failed') ? 'failed' : null;
  if (before === 'failed' && wanted.includes('recovered')) return 'recovered';
  return wanted.includes('succeeded') ? 'succeeded' : null;
}
