import type { MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api/api-error';
import { maintenanceWindowsApi } from '../api/maintenance-windows-api';
import { useDashboard } from '../dashboard/dashboard-store';
import { ConfirmDeleteModal } from '../ui/confirm-delete-modal';
import { notify } from '../ui/toasts';
import { MaintenanceWindowForm } from './maintenance-window-form';

const when = (w: MaintenanceWindow) =>
  w.cron_expression !== null
    ? `${w.cron_expression} for ${w.duration_minutes} min (${w.time_zone})`
    : `${new Date(w.starts_at!).toLocaleString()} – ${new Date(w.ends_at!).toLocaleString()}`;

/**
 * Maintenance windows: spans in which the covered jobs' failures alert no one
 * (their log lines say which window muted them) and, if asked, their runs
 * are skipped.
 */
export default function MaintenanceSection() {
  const jobs = useDashboard((s) => s.jobs);
  const [windows, setWindows] = useState<MaintenanceWindow[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<MaintenanceWindow | null>(null);
  const jobName = (id: string) => jobs.find((j) => j.job_id === id)?.name ?? 'a deleted job';
  const covers = (w: MaintenanceWindow) => (w.job_id ? jobName(w.job_id) : w.tag ? `jobs tagged ${w.tag}` : 'every job');

  const load = useCallback(async () => {
    try {
      setWindows(await maintenanceWindowsApi.list());
    } catch (error) {
      notify.error(`Failed to load maintenance windows: ${errorMessage(error)}`);
    } finally {
      setLoaded(true);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (window: MaintenanceWindow) => {
    try {
      await maintenanceWindowsApi.remove(window.window_id);
    } catch (error) {
      notify.error(`Failed to delete the maintenance window: ${errorMessage(error)}`);
      return false;
    }
    setWindows(windows.filter((w) => w.window_id !== window.window_id));
    notify.success(`Maintenance window '${window.name}' deleted`);
    return true;
  };

  return (
    <section aria-labelledby="maintenance-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="maintenance-title">Maintenance</h1>
          <p className="muted">Windows in which failures send no alert (the job's log says which window muted it) and, if you choose, runs are skipped.</p>
        </div>
        <div className="button-row">
          <button type="button" className="button button-primary" onClick={() => setCreating(true)} disabled={creating}>
            New Window
          </button>
        </div>
      </div>
      {creating && (
        <MaintenanceWindowForm
          jobs={jobs}
          onCancel={() => setCreating(false)}
          onSaved={(saved) => {
            setWindows([...windows, saved]);
            setCreating(false);
          }}
        />
      )}
      <div className="panel">
        {windows.length === 0 ? (
          loaded && <p className="empty-state">No maintenance windows. Add one before a deploy or for a recurring upgrade slot.</p>
        ) : (
          <table className="data-table card-table" aria-label="Maintenance windows">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Covers</th>
                <th scope="col">When</th>
                <th scope="col">Runs</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {windows.map((w) => (
                <tr key={w.window_id}>
                  <td data-label="Name" className="strong">
                    {w.name} {w.active && <span className="status-badge status-success">open now</span>}
                  </td>
                  <td data-label="Covers">{covers(w)}</td>
                  <td data-label="When">{when(w)}</td>
                  <td data-label="Runs">{w.pause_runs ? 'paused' : 'run as usual'}</td>
                  <td data-label="Actions">
                    <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(w)}>
                      Delete<span className="visually-hidden"> {w.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {deleting && (
        <ConfirmDeleteModal title="Delete maintenance window" confirmLabel="Delete Window" onConfirm={() => remove(deleting)} onClose={() => setDeleting(null)}>
          <p>
            Delete <strong>{deleting.name}</strong>? Failures it covers alert again from now on.
          </p>
        </ConfirmDeleteModal>
      )}
    </section>
  );
}
