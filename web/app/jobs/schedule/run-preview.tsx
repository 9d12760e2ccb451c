import { DEFAULT_TIME_ZONE, cronError, describeCron, formatInZone, nextRuns } from '@cronbeam/shared/cron';
import { useMemo } from 'react';
import { formatUtc } from '../../ui/format';

export const PREVIEW_RUNS = 5;

/**
 * The plain-English reading of the schedule and its next 5 run times, live as
 * it is edited: on the job's own clock and, when that is not UTC, in UTC too
 * (what the logs and the API show).
 */
export function RunPreview({ expression, timeZone = DEFAULT_TIME_ZONE, now }: { expression: string; timeZone?: string; now?: Date }) {
  const preview = useMemo(() => {
    if (cronError(expression, { seconds: true })) return null;
    return { description: describeCron(expression), runs: nextRuns(expression, PREVIEW_RUNS, now ?? new Date(), timeZone) };
  }, [expression, timeZone, now]);
  if (!preview) return null;
  const local = timeZone !== DEFAULT_TIME_ZONE;
  return (
    <div className="run-preview" aria-live="polite">
      <p className="cron-description" data-testid="cron-description">
        {preview.description} ({timeZone})
      </p>
      <h4>Next {PREVIEW_RUNS} runs</h4>
      <ol className="next-runs" data-testid="next-runs">
        {preview.runs.map((run) => (
          <li key={run.toISOString()}>
            {local ? (
              <>
                <span data-testid="run-local">{formatInZone(run, timeZone)}</span> <span className="muted">({formatUtc(run)})</span>
              </>
            ) : (
              formatUtc(run)
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
