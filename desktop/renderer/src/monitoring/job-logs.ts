import type { JobLogEntry } from '@shared/jobs/job-types';
import { useCallback, useEffect, useState } from 'react';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { ERROR_TEXT } from '../api/error-messages';
import { jobsApi } from '../api/jobs-api';

/** Spec: the 10 most recent executions are shown. */
export const LOGS_SHOWN = 10;

const timeOf = (entry: JobLogEntry) => Date.parse(entry.executed_at ?? entry.scheduled_for) || 0;

/** Newest first, the `count` latest (the client sorts whatever order the server used). */
export function latestLogs(logs: JobLogEntry[], count = LOGS_SHOWN): JobLogEntry[] {
  return [...logs].sort((a, b) => timeOf(b) - timeOf(a)).slice(0, count);
}

/** How many executions the chart looks back over. */
export const CHART_HISTORY = 50;

/** The logs catalogue's text for a failed logs call. */
export function logsErrorText(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 401) return ERROR_TEXT.logsAuthError;
    if (error.status === 404) return ERROR_TEXT.logsNotFound;
  }
  return `Failed to load logs: ${errorMessage(error)}`;
}

/** Fetches one job's recent executions, newest first. */
export async function fetchHistory(jobId: string): Promise<JobLogEntry[]> {
  const answer = await jobsApi.logs(jobId);
  if (!answer || !Array.isArray(answer.logs)) throw new Error(ERROR_TEXT.noLogData);
  return latestLogs(answer.logs, CHART_HISTORY);
}

export interface JobLogsState {
  /** The 10 latest executions, newest first. */
  logs: JobLogEntry[];
  /** Up to CHART_HISTORY executions for the chart, newest first. */
  history: JobLogEntry[];
  loading: boolean;
  error: string | null;
  reload(): Promise<void>;
}

/** The latest executions of a job, loaded when the job changes; `reload` fetches again (after a live event). */
export function useJobLogs(jobId: string | null): JobLogsState {
  const [history, setHistory] = useState<JobLogEntry[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    if (!jobId) return;
    setLoading(true);
    try {
      setHistory(await fetchHistory(jobId));
      setError(null);
    } catch (failure) {
      setError(failure instanceof Error && failure.message === ERROR_TEXT.noLogData ? ERROR_TEXT.noLogData : logsErrorText(failure));
    } finally {
      setLoading(false);
    }
  }, [jobId]);

  useEffect(() => {
    setHistory([]);
    setError(null);
    void reload();
  }, [reload]);

  return { logs: history.slice(0, LOGS_SHOWN), history, loading, error, reload };
}
