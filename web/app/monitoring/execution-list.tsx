import type { JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import { formatUtc } from '../ui/format';
import { outcomeLabel } from './execution-details';
import type { DueRun } from './job-logs';

interface ExecutionListProps {
  runs: DueRun[];
  selectedId: string | null;
  onSelect(entry: JobLogEntry): void;
}

function ExecutionRow({ entry, title, selected, onSelect }: { entry: JobLogEntry; title: string; selected: boolean; onSelect(): void }) {
  const label = outcomeLabel(entry);
  return (
    <button type="button" className={selected ? 'execution-row selected' : 'execution-row'} aria-pressed={selected} onClick={onSelect}>
      <span className={`dot ${label === 'SUCCESS' ? 'dot-success' : 'dot-failed'}`} aria-hidden="true" />
      <span className="execution-time">{title}</span>
      <span className="execution-meta">
        {label}
        {entry.response_code != null ? ` · ${entry.response_code}` : ''}
        {entry.duration_ms != null ? ` · ${entry.duration_ms} ms` : ''}
        {entry.trigger === 'manual' ? ' · run now' : ''}
      </span>
    </button>
  );
}

/**
 * The latest due runs as selectable rows. A run that was retried shows as one
 * group: its due time and how it ended, then each attempt with its own
 * outcome, so ten failed rows read as the three runs they were.
 */
export function ExecutionList({ runs, selectedId, onSelect }: ExecutionListProps) {
  return (
    <ul className="execution-list" aria-label="Latest executions">
      {runs.map((run) => {
        const timeOf = (entry: JobLogEntry) => formatUtc(entry.executed_at ?? entry.scheduled_for);
        // Attempts sit under their due date: the time of day is enough ("22:36:24 UTC").
        const clockOf = (entry: JobLogEntry) => timeOf(entry).split(', ').pop();
        if (run.attempts.length === 1) {
          const [entry] = run.attempts;
          return (
            <li key={run.key}>
              <ExecutionRow entry={entry} title={timeOf(entry)} selected={entry.run_id === selectedId} onSelect={() => onSelect(entry)} />
            </li>
          );
        }
        const last = run.attempts[run.attempts.length - 1];
        const headingId = `due-run-${last.run_id}`;
        return (
          <li key={run.key} className="due-run">
            <p className="due-run-head" id={headingId}>
              <span className="execution-time">Due {formatUtc(run.scheduledFor)}</span>
              <span className="due-run-outcome">
                {outcomeLabel(last)} after {run.attempts.length} attempts
              </span>
            </p>
            <ol className="due-run-attempts" aria-labelledby={headingId}>
              {run.attempts.map((entry) => (
                <li key={entry.run_id}>
                  <ExecutionRow
                    entry={entry}
                    title={`Attempt ${entry.attempt}${entry.attempt > 1 ? ' (retry)' : ''} · ${clockOf(entry)}`}
                    selected={entry.run_id === selectedId}
                    onSelect={() => onSelect(entry)}
                  />
                </li>
              ))}
            </ol>
          </li>
        );
      })}
    </ul>
  );
}
