import { useServerEvents } from '../api/server-events';

/** What the dashboard needs of one execution event: which job ran. */
export interface ExecutionEvent {
  job_id: string;
  status?: string;
}

/** Reads a job id from an event, whichever casing the server used. */
function jobIdOf(event: unknown): string | null {
  if (!event || typeof event !== 'object') return null;
  const record = event as Record<string, unknown>;
  const id = record.job_id ?? record.jobId;
  return typeof id === 'string' ? id : null;
}

/** Follows the server's event stream for the caller's execution outcomes. */
export function useExecutionEvents(onEvent: (event: ExecutionEvent) => void): void {
  useServerEvents((event) => {
    const jobId = jobIdOf(event);
    if (jobId) onEvent({ ...(event as object), job_id: jobId });
  });
}
