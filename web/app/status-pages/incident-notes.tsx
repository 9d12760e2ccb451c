import type { StatusIncident } from '@cronbeam/shared/notifications/status-pages';
import { STATUS_PAGE_LIMITS } from '@cronbeam/shared/notifications/status-pages';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../api/api-error';
import { statusPagesApi } from '../api/status-pages-api';
import { formatUtc } from '../ui/format';
import { notify } from '../ui/toasts';

/** The page's incidents over 90 days, newest first, each with the public note its owner may write. */
export function IncidentNotes({ pageId }: { pageId: string }) {
  const [incidents, setIncidents] = useState<StatusIncident[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    statusPagesApi.incidents(pageId).then(
      (answer) => setIncidents(answer.incidents),
      (e: unknown) => setError(errorMessage(e)),
    );
  }, [pageId]);

  if (error) return <p className="field-error">Failed to load incidents: {error}</p>;
  if (!incidents) return <div className="spinner" role="status" aria-label="Loading incidents" />;
  if (incidents.length === 0) return <p className="muted">No incidents in the last 90 days.</p>;
  return (
    <ul className="status-incidents" aria-label="Incidents">
      {incidents.map((incident) => (
        <IncidentNote key={`${incident.job_id ?? incident.monitor_id} ${incident.started_at}`} pageId={pageId} incident={incident} />
      ))}
    </ul>
  );
}

function IncidentNote({ pageId, incident }: { pageId: string; incident: StatusIncident }) {
  const id = useId();
  const [note, setNote] = useState(incident.note ?? '');
  const [saved, setSaved] = useState(incident.note ?? '');
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const subject = incident.job_id ? { job_id: incident.job_id } : { monitor_id: incident.monitor_id! };
      const answer = await statusPagesApi.setNote(pageId, { ...subject, started_at: incident.started_at, note });
      setSaved(answer.note ?? '');
      notify.success(answer.note ? 'Note published' : 'Note removed');
    } catch (e) {
      notify.error(`Failed to save the note: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="status-incident">
      <div className="strong">
        {incident.name} <span className="muted">{incident.resolved_at ? `resolved ${formatUtc(incident.resolved_at, '')}` : 'ongoing'}</span>
      </div>
      <div className="muted">
        Started {formatUtc(incident.started_at, '')} · {incident.failures} failed
      </div>
      <label htmlFor={`${id}-note`} className="field-label">
        Public note
      </label>
      <textarea id={`${id}-note`} rows={2} maxLength={STATUS_PAGE_LIMITS.noteMaxLength} value={note} onChange={(e) => setNote(e.target.value)} />
      <div className="button-row">
        <button type="button" className="button button-secondary button-small" disabled={busy || note === saved} onClick={() => void save()}>
          {note.trim() === '' && saved ? 'Remove Note' : 'Save Note'}
        </button>
      </div>
    </li>
  );
}
