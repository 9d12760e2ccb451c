import type { StatusBadge, StatusPage } from '@cronbeam/shared/notifications/status-pages';
import { Fragment, useCallback, useEffect, useId, useState } from 'react';
import { errorMessage } from '../api/api-error';
import { statusPagesApi } from '../api/status-pages-api';
import { useDashboard } from '../dashboard/dashboard-store';
import { useMonitors } from '../monitors/monitors-store';
import { ConfirmDeleteModal } from '../ui/confirm-delete-modal';
import { CopyButton } from '../ui/copy-button';
import { notify } from '../ui/toasts';
import { IncidentNotes } from './incident-notes';
import { StatusPageForm } from './status-page-form';
import './status-pages.css';

/**
 * Status pages: public pages showing chosen jobs and monitors (state,
 * 90-day uptime, incidents with notes), and badges: SVG images of a job,
 * monitor or page at unguessable URLs, to embed in a README or a dashboard.
 */
export default function StatusPagesSection() {
  const jobs = useDashboard((s) => s.jobs);
  const { monitors, load: loadMonitors } = useMonitors();
  const [pages, setPages] = useState<StatusPage[]>([]);
  const [badges, setBadges] = useState<StatusBadge[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [editing, setEditing] = useState<StatusPage | 'new' | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<StatusPage | null>(null);

  const load = useCallback(async () => {
    try {
      const [p, b] = await Promise.all([statusPagesApi.list(), statusPagesApi.badges()]);
      setPages(p);
      setBadges(b);
    } catch (error) {
      notify.error(`Failed to load status pages: ${errorMessage(error)}`);
    } finally {
      setLoaded(true);
    }
  }, []);

  useEffect(() => {
    void load();
    void loadMonitors(true);
  }, [load, loadMonitors]);

  const remove = async (page: StatusPage) => {
    try {
      await statusPagesApi.remove(page.page_id);
    } catch (error) {
      notify.error(`Failed to delete the status page: ${errorMessage(error)}`);
      return false;
    }
    setPages(pages.filter((p) => p.page_id !== page.page_id));
    setBadges(badges.filter((b) => b.page_id !== page.page_id));
    notify.success(`Status page '${page.title}' deleted`);
    return true;
  };

  return (
    <section aria-labelledby="status-pages-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="status-pages-title">Status Pages</h1>
          <p className="muted">Public pages with the state, 90-day uptime and incidents of the jobs and monitors you choose, and badges to embed elsewhere.</p>
        </div>
        <div className="button-row">
          <button type="button" className="button button-primary" onClick={() => setEditing('new')} disabled={editing !== null}>
            New Status Page
          </button>
        </div>
      </div>
      {editing && (
        <StatusPageForm
          key={editing === 'new' ? 'new' : editing.page_id}
          page={editing === 'new' ? undefined : editing}
          jobs={jobs}
          monitors={monitors}
          onCancel={() => setEditing(null)}
          onSaved={(saved) => {
            setPages(editing === 'new' ? [...pages, saved] : pages.map((p) => (p.page_id === saved.page_id ? saved : p)));
            setEditing(null);
          }}
        />
      )}
      <div className="panel">
        {pages.length === 0 ? (
          loaded && <p className="empty-state">No status pages yet. Publish one to show your users how your jobs are doing.</p>
        ) : (
          <table className="data-table card-table" aria-label="Status pages">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Address</th>
                <th scope="col">Shows</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pages.map((page) => (
                <Fragment key={page.page_id}>
                  <tr>
                    <td data-label="Title" className="strong">
                      {page.title}
                    </td>
                    <td data-label="Address">
                      <a href={page.url} target="_blank" rel="noreferrer">
                        /status/{page.slug}
                      </a>
                      {page.custom_domain && <div className="muted">{page.custom_domain}</div>}
                    </td>
                    <td data-label="Shows">{page.items.length} item{page.items.length === 1 ? '' : 's'}</td>
                    <td data-label="Actions">
                      <div className="row-actions">
                        <button type="button" className="button button-secondary button-small" aria-expanded={openId === page.page_id} onClick={() => setOpenId(openId === page.page_id ? null : page.page_id)}>
                          Incidents<span className="visually-hidden"> of {page.title}</span>
                        </button>
                        <button type="button" className="button button-secondary button-small" onClick={() => setEditing(page)}>
                          Edit<span className="visually-hidden"> {page.title}</span>
                        </button>
                        <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(page)}>
                          Delete<span className="visually-hidden"> {page.title}</span>
                        </button>
                      </div>
                    </td>
                  </tr>
                  {openId === page.page_id && (
                    <tr>
                      <td colSpan={4}>
                        <IncidentNotes pageId={page.page_id} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <Badges badges={badges} setBadges={setBadges} pages={pages} />
      {deleting && (
        <ConfirmDeleteModal title="Delete status page" confirmLabel="Delete Status Page" onConfirm={() => remove(deleting)} onClose={() => setDeleting(null)}>
          <p>
            Delete <strong>{deleting.title}</strong>? Its address, feed, custom domain and badge stop working.
          </p>
        </ConfirmDeleteModal>
      )}
    </section>
  );
}

/** Badges: one per job, monitor or page, each at its own unguessable URL that can be rotated or revoked. */
function Badges({ badges, setBadges, pages }: { badges: StatusBadge[]; setBadges(badges: StatusBadge[]): void; pages: StatusPage[] }) {
  const id = useId();
  const jobs = useDashboard((s) => s.jobs);
  const monitors = useMonitors((s) => s.monitors);
  const [subject, setSubject] = useState('');
  const names = new Map<string, string>([
    ...jobs.map((j) => [`job_id:${j.job_id}`, j.name] as [string, string]),
    ...monitors.map((m) => [`monitor_id:${m.monitor_id}`, `${m.name} (monitor)`] as [string, string]),
    ...pages.map((p) => [`page_id:${p.page_id}`, `${p.title} (status page)`] as [string, string]),
  ]);
  const nameOf = (b: StatusBadge) => names.get(b.job_id ? `job_id:${b.job_id}` : b.monitor_id ? `monitor_id:${b.monitor_id}` : `page_id:${b.page_id}`) ?? 'Deleted';

  const create = async () => {
    const [field, value] = subject.split(':') as ['job_id' | 'monitor_id' | 'page_id', string];
    try {
      const badge = await statusPagesApi.createBadge({ [field]: value });
      setBadges([...badges, badge]);
      setSubject('');
      notify.success('Badge created');
    } catch (error) {
      notify.error(`Failed to create the badge: ${errorMessage(error)}`);
    }
  };
  const rotate = async (badge: StatusBadge) => {
    try {
      const rotated = await statusPagesApi.rotateBadge(badge.badge_id);
      setBadges(badges.map((b) => (b.badge_id === rotated.badge_id ? rotated : b)));
      notify.success('The badge has a new URL; the old one no longer works');
    } catch (error) {
      notify.error(`Failed to rotate the badge: ${errorMessage(error)}`);
    }
  };
  const revoke = async (badge: StatusBadge) => {
    try {
      await statusPagesApi.removeBadge(badge.badge_id);
      setBadges(badges.filter((b) => b.badge_id !== badge.badge_id));
      notify.success('Badge revoked');
    } catch (error) {
      notify.error(`Failed to revoke the badge: ${errorMessage(error)}`);
    }
  };

  return (
    <div className="panel panel-padded status-badges">
      <h2>Badges</h2>
      <p className="muted">An SVG image of the state and 90-day uptime. Anyone with its URL can see it: rotate the URL to stop an old one working.</p>
      <div className="status-badge-new">
        <label htmlFor={`${id}-subject`} className="visually-hidden">
          Badge of
        </label>
        <select id={`${id}-subject`} value={subject} onChange={(e) => setSubject(e.target.value)}>
          <option value="">Choose a job, monitor or status page</option>
          {[...names].map(([key, name]) => (
            <option key={key} value={key}>
              {name}
            </option>
          ))}
        </select>
        <button type="button" className="button button-secondary" disabled={!subject} onClick={() => void create()}>
          Create Badge
        </button>
      </div>
      {badges.length > 0 && (
        <ul className="status-badge-list" aria-label="Badges">
          {badges.map((badge) => (
            <li key={badge.badge_id}>
              <img src={badge.url} alt={`Badge of ${nameOf(badge)}`} height={20} />
              <code className="status-badge-url">{badge.url}</code>
              <CopyButton value={badge.url} label={`Copy the badge URL of ${nameOf(badge)}`} />
              <button type="button" className="button button-secondary button-small" onClick={() => void rotate(badge)}>
                New URL<span className="visually-hidden"> for the badge of {nameOf(badge)}</span>
              </button>
              <button type="button" className="button button-small button-danger-outline" onClick={() => void revoke(badge)}>
                Revoke<span className="visually-hidden"> the badge of {nameOf(badge)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
