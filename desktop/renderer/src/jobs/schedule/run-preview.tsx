import { cronError, describeCron, nextRuns } from '@shared/cron';
import { useMemo } from 'react';
import { formatUtc } from '../../ui/format';

export const PREVIEW_RUNS = 5;

/** The plain-English reading of the schedule and its next 5 run times, live as it is edited. */
export function RunPreview({ expression, now }: { expression: string; now?: Date }) {
  const preview = useMemo(() => {
    if (cronError(expression)) return null;
    return { description: describeCron(expression), runs: nextRuns(expression, PREVIEW_RUNS, now ?? new Date()) };
  }, [expression, now]);
  if (!preview) return null;
  return (
    <div className="run-preview" aria-live="polite">
      <p className="cron-description" data-testid="cron-description">
        {preview.description} (UTC)
      </p>
      <h4>Next {PREVIEW_RUNS} runs</h4>
      <ol className="next-runs" data-testid="next-runs">
        {preview.runs.map((run) => (
          <li key={run.toISOString()}>{formatUtc(run)}</li>
        ))}
      </ol>
    </div>
  );
}
