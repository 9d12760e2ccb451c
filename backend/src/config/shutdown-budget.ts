import type { Env } from './env.schema';

/** Added to the longest execution when SHUTDOWN_TIMEOUT_MS is unset: room to store the last results and close. */
export const SHUTDOWN_MARGIN_MS = 5_000;

/** Kept at the end of the budget for storing results and closing (at most half the budget). */
const RECORDING_RESERVE_MS = 4_000;

type Limits = Pick<Env, 'EXECUTION_TIMEOUT_MS' | 'SCHEDULER_LEASE_GRACE_MS'>;

/**
 * How long a request may wait for a connection slot before it is reported as
 * not sent: its own time limit, but at most half the scheduler's lease grace,
 * so that a run that waited and then used its whole time limit still ends
 * inside its lease (time limit + grace) and is never taken over on the wire.
 */
export function connectionWaitMs(env: Limits): number {
  return Math.max(1, Math.min(env.EXECUTION_TIMEOUT_MS, Math.floor(env.SCHEDULER_LEASE_GRACE_MS / 2)));
}

/** The longest an execution can last: the wait for a connection slot, then its time limit. */
export function longestExecutionMs(env: Limits): number {
  return connectionWaitMs(env) + env.EXECUTION_TIMEOUT_MS;
}

/** How a stop (SIGTERM, SIGINT) spends its time. */
export interface ShutdownBudget {
  /** From the signal to the exit; a process not done by then exits with code 1. */
  totalMs: number;
  /** How long requests already sent may still run; those unanswered by then are recorded as interrupted. */
  executionsMs: number;
  /** Whether the longest execution still fits (false only with a short SHUTDOWN_TIMEOUT_MS). */
  coversLongestExecution: boolean;
}

/**
 * The stop lets every request already sent finish within its own limits, so
 * by default the budget is the longest execution plus a margin for storing
 * the results. A shorter SHUTDOWN_TIMEOUT_MS is honoured (a platform may kill
 * the process after a fixed grace period): requests still unanswered when
 * their part of it ends are recorded as interrupted, never left unrecorded.
 */
export function shutdownBudget(env: Limits & Pick<Env, 'SHUTDOWN_TIMEOUT_MS'>): ShutdownBudget {
  const longest = longestExecutionMs(env);
  const totalMs = env.SHUTDOWN_TIMEOUT_MS ?? longest + SHUTDOWN_MARGIN_MS;
  const executionsMs = totalMs - Math.min(RECORDING_RESERVE_MS, Math.floor(totalMs / 2));
  return { totalMs, executionsMs, coversLongestExecution: executionsMs >= longest };
}
