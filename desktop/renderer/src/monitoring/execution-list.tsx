import type { JobLogEntry } from '@shared/jobs/job-types';
import { formatUtc } from '../ui/format';
import { outcomeLabel } from './execution-details';

interface ExecutionListProps {
  logs: JobLogEntry[];
  selectedId: string | null;
  onSelect(entry: JobLogEntry): void;
}

/** The latest executions as a list of selectable rows. */
export function ExecutionList({ logs, selectedId, onSelect }: ExecutionListProps) {
  return (
    <ul className="execution-list" aria-label="Latest executions">
      {logs.map((entry) => {
        const label = outcomeLabel(entry);
        return (
          <li key={entry.run_id}>
            <button
              type="button"
              className={entry.run_id === selectedId ? 'execution-row selected' : 'execution-row'}
              aria-pressed={entry.run_id === selectedId}
              onClick={() => onSelect(entry)}
            >
              <span className={`dot ${label === 'SUCCESS' ? 'dot-success' : 'dot-failed'}`} aria-hidden="true" />
              <span className="execution-time">{formatUtc(entry.executed_at ?? entry.scheduled_for)}</span>
              <span className="execution-meta">
                {label}
                {entry.response_code != null ? ` · ${entry.response_code}` : ''}
                {entry.duration_ms != null ? ` · ${entry.duration_ms} ms` : ''}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
