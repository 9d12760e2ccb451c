import type { JobLogEntry } from '@cronbeam/shared/jobs/job-types';
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

/** One due run of a job: its first attempt and the retries of the same due time, oldest first. */
export interface DueRun {
  key: string;
  scheduledFor: string;
  attempts: JobLogEntry[];
}

/**
 * Groups executions (newest first) by the due run they belong to, newest due
 * run first. Retries keep their run's due time, so they share its key; each
 * manual run is a due run of its own.
 */
export function groupByDueRun(logs: JobLogEntry[]): DueRun[] {
  const runs = new Map<string, DueRun>();
  for (const entry of logs) {
    const key = entry.trigger === 'manual' ? `manual:${entry.run_id}` : `due:${entry.scheduled_for}`;
    const run = runs.get(key) ?? { key, scheduledFor: entry.scheduled_for, attempts: [] };
    run.attempts.unshift(entry);
    runs.set(key, run);
  }
  for (const run of runs.values()) run.attempts.sort((a, b) => a.attempt - b.attempt || timeOf(a) - timeOf(b));
  return [...runs.values()];
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
  /** The 10 latest due runs, newest first, each with all its attempts in the history. */
  dueRuns: DueRun[];
  /** Every attempt of those due runs, newest first. */
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

  const dueRuns = groupByDueRun(history).slice(0, LOGS_SHOWN);
  const logs = dueRuns.flatMap((run) => [...run.attempts].reverse());
  return { dueRuns, logs, history, loading, error, reload };
}
