import type { AuditEvent } from '@cronbeam/shared/audit/audit';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api/api-error';
import { auditApi, type AuditFilters } from '../api/audit-api';
import { notify } from '../ui/toasts';

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

const actorOf = (e: AuditEvent) => (e.actor_key_id ? `API key ${e.actor_key_id.slice(0, 8)}` : e.actor_user_id ? `user ${e.actor_user_id.slice(0, 8)}` : 'Cronbeam');

/** A local date-time input's value as the ISO instant the API takes (empty stays empty). */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : '');

/**
 * The account's audit log (owners and admins): who changed what and when,
 * the changed fields before and after (secrets shown as ***), filtered, paged
 * and downloadable as CSV.
 */
export default function AuditSection() {
  const [draft, setDraft] = useState({ action: '', target: '', actor: '', since: '', until: '' });
  const [filters, setFilters] = useState<AuditFilters>({});
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(async (applied: AuditFilters, after?: string) => {
    try {
      const page = await auditApi.page(applied, after);
      setEvents((shown) => (after ? [...shown, ...page.events] : page.events));
      setCursor(page.next_cursor);
      setFailure(null);
    } catch (error) {
      // Shown in place of the list: a refusal (the log is for owners and admins) is the page's answer, not a passing notice.
      setFailure(`The audit log could not be loaded: ${errorMessage(error)}`);
    } finally {
      setLoaded(true);
    }
  }, []);

  useEffect(() => {
    void load(filters);
  }, [load, filters]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ action: draft.action.trim(), target: draft.target.trim(), actor: draft.actor.trim(), since: isoOf(draft.since), until: isoOf(draft.until) });
  };

  const download = async () => {
    try {
      const csv = await auditApi.csv(filters);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = 'audit-log.csv';
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      notify.error(`Failed to export the audit log: ${errorMessage(error)}`);
    }
  };

  const field = (name: keyof typeof draft, label: string, type = 'text', placeholder = '') => (
    <div className="field">
      <label htmlFor={`audit-${name}`}>{label}</label>
      <input id={`audit-${name}`} type={type} value={draft[name]} placeholder={placeholder} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })} />
    </div>
  );

  return (
    <section aria-labelledby="audit-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="audit-title">Audit Log</h1>
          <p className="muted">Every change in this account: who made it, when, from where, and the fields before and after (secrets show as ***).</p>
        </div>
        <div className="button-row">
          <button type="button" className="button" onClick={() => void download()}>
            Download CSV
          </button>
        </div>
      </div>
      <form className="panel form audit-filters" onSubmit={apply} aria-label="Audit log filters">
        {field('action', 'Action', 'text', 'job or job.updated')}
        {field('target', 'Target id')}
        {field('actor', 'Actor id (user or API key)')}
        {field('since', 'From', 'datetime-local')}
        {field('until', 'Until', 'datetime-local')}
        <button type="submit" className="button button-primary">
          Filter
        </button>
      </form>
      <div className="panel">
        {failure && (
          <div className="alert alert-error" role="alert">
            {failure}
          </div>
        )}
        {events.length === 0 ? (
          loaded && !failure && <p className="empty-state">No changes match.</p>
        ) : (
          <table className="data-table card-table" aria-label="Audit log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td data-label="When">{new Date(e.created_at).toLocaleString()}</td>
                  <td data-label="Who">
                    {actorOf(e)}
                    {e.actor_ip && <span className="muted"> from {e.actor_ip}</span>}
                  </td>
                  <td data-label="Action" className="strong">
                    {e.action}
                  </td>
                  <td data-label="Target">
                    {e.target_type} {e.target_id ?? ''}
                  </td>
                  <td data-label="Changes">
                    <ul className="change-list">
                      {Object.entries(e.changes).map(([name, change]) => (
                        <li key={name}>
                          <code>{name}</code>: {show(change.before)} → {show(change.after)}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {cursor && (
          <button type="button" className="button" onClick={() => void load(filters, cursor)}>
            Load older
          </button>
        )}
      </div>
    </section>
  );
}
