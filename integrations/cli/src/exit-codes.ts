import { CronbeamApiError, CronbeamConnectionError } from '@cronbeam/sdk';

/** What the process's exit status means, for scripts and CI. */
export const EXIT = {
  ok: 0,
  /** The API refused the request (a 4xx other than those below), or a run the command started failed. */
  failed: 1,
  /** Wrong arguments or an invalid cronbeam.yaml: nothing was sent. */
  usage: 2,
  /** Not logged in, or the key and user id were refused (401). */
  auth: 3,
  /** The job or monitor named does not exist (404). */
  notFound: 4,
  /** Cronbeam could not be reached, or answered 5xx or 429 after the retries. */
  unavailable: 5,
  /** exec: the command could not be started. */
  commandNotStarted: 127,
} as const;

/** A failure the CLI reports in one line and ends with the given exit status. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/** The exit status and the line to print for any error a command throws. */
export function describeFailure(error: unknown): { message: string; exitCode: number } {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof CronbeamConnectionError) return { message: error.message, exitCode: EXIT.unavailable };
  if (error instanceof CronbeamApiError) {
    const message = `${error.message} (HTTP ${error.status})`;
    if (error.status === 401) return { message: `${message}: check CRONBEAM_API_KEY and CRONBEAM_USER_ID, or run cronbeam login`, exitCode: EXIT.auth };
    if (error.status === 404) return { message, exitCode: EXIT.notFound };
    if (error.status === 429 || error.status >= 500) return { message, exitCode: EXIT.unavailable };
    return { message, exitCode: EXIT.failed };
  }
  return { message: error instanceof Error ? error.message : String(error), exitCode: EXIT.failed };
}
