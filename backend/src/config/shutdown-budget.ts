import type { Env } from './env.schema';

/** Added to the execution timeout when SHUTDOWN_TIMEOUT_MS is unset: room to store the last results and close. */
export const SHUTDOWN_MARGIN_MS = 5_000;

/** Kept at the end of the budget for storing results and closing (at most half the budget). */
const RECORDING_RESERVE_MS = 4_000;

/** How a stop (SIGTERM, SIGINT) spends its time. */
export interface ShutdownBudget {
  /** From the signal to the exit; a process not done by then exits with code 1. */
  totalMs: number;
  /** How long requests already sent may still run; those unanswered by then are recorded as interrupted. */
  executionsMs: number;
  /** Whether a request running for the whole execution timeout still fits (false only with a short SHUTDOWN_TIMEOUT_MS). */
  coversExecutionTimeout: boolean;
}

/**
 * The stop lets every request already sent finish within its own timeout, so
 * by default the budget is the execution timeout plus a margin for storing
 * the results. A shorter SHUTDOWN_TIMEOUT_MS is honoured (a platform may kill
 * the process after a fixed grace period): requests still unanswered when
 * their part of it ends are recorded as interrupted, never left unrecorded.
 */
export function shutdownBudget(env: Pick<Env, 'SHUTDOWN_TIMEOUT_MS' | 'EXECUTION_TIMEOUT_MS'>): ShutdownBudget {
  const totalMs = env.SHUTDOWN_TIMEOUT_MS ?? env.EXECUTION_TIMEOUT_MS + SHUTDOWN_MARGIN_MS;
  const executionsMs = totalMs - Math.min(RECORDING_RESERVE_MS, Math.floor(totalMs / 2));
  return { totalMs, executionsMs, coversExecutionTimeout: executionsMs >= env.EXECUTION_TIMEOUT_MS };
}
