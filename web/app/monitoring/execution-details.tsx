import type { JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import { formatUtc } from '../ui/format';

/** Spec 3: 'success' is success; anything else shows as FAILED. */
export function outcomeLabel(entry: JobLogEntry): 'SUCCESS' | 'FAILED' {
  return entry.status === 'success' ? 'SUCCESS' : 'FAILED';
}

/** The response as pretty JSON when it is JSON; otherwise a short summary of what came back. */
export function formatResponse(entry: JobLogEntry): { json: boolean; text: string } {
  const body = entry.response_body;
  if (body) {
    try {
      return { json: true, text: JSON.stringify(JSON.parse(body), null, 2) };
    } catch {
      return { json: false, text: body };
    }
  }
  const parts = [
    `Status: ${outcomeLabel(entry)}`,
    entry.response_code != null ? `HTTP ${entry.response_code}` : 'No HTTP response',
    entry.duration_ms != null ? `${entry.duration_ms} ms` : null,
    entry.error_message ? `Error: ${entry.error_message}` : null,
  ];
  return { json: false, text: parts.filter(Boolean).join('\n') };
}

/** Everything about one execution: time, outcome and code, error and response. */
export function ExecutionDetails({ entry }: { entry: JobLogEntry }) {
  const response = formatResponse(entry);
  const label = outcomeLabel(entry);
  return (
    <div className="execution-details">
      <dl className="detail-grid">
        <dt>Execution time</dt>
        <dd>{formatUtc(entry.executed_at ?? entry.scheduled_for)}</dd>
        <dt>Status</dt>
        <dd>
          <span className={`status-badge ${label === 'SUCCESS' ? 'status-success' : 'status-failed'}`}>{label}</span>
          {entry.response_code != null && <span className="status-code">HTTP {entry.response_code}</span>}
          {entry.possible_duplicate && (
            <span className="status-code" title="A server stopped while this request may already have reached the URL; it was sent again with the same execution id.">
              possible duplicate
            </span>
          )}
        </dd>
        <dt>Duration</dt>
        <dd>{entry.duration_ms != null ? `${entry.duration_ms} ms` : '—'}</dd>
        <dt>Trigger</dt>
        <dd>
          {entry.trigger}
          {entry.attempt > 1 ? ` (attempt ${entry.attempt})` : ''}
        </dd>
        {entry.error_message && (
          <>
            <dt>Error</dt>
            <dd className="error-text">{entry.error_message}</dd>
          </>
        )}
        {entry.alert_note && (
          <>
            <dt>Alert</dt>
            <dd>{entry.alert_note}</dd>
          </>
        )}
      </dl>
      <h3 className="detail-heading">{response.json ? 'Response (JSON)' : 'Response'}</h3>
      <pre className="response-box" tabIndex={0} aria-label="Response data">
        {response.text}
      </pre>
    </div>
  );
}
