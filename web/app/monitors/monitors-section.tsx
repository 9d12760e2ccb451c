import type { AlertChannel } from '@cronbeam/shared/notifications/alert-channels';
import type { Monitor, MonitorEvent } from '@cronbeam/shared/notifications/monitors';
import { Fragment, useCallback, useEffect, useState } from 'react';
import { alertChannelsApi } from '../api/alert-channels-api';
import { errorMessage } from '../api/api-error';
import { monitorsApi } from '../api/monitors-api';
import { ConfirmDeleteModal } from '../ui/confirm-delete-modal';
import { CopyButton } from '../ui/copy-button';
import { formatUtc } from '../ui/format';
import { ACTION_DONE, carriesTag, TagBulkBar, TagChips, tagsOf } from '../ui/tag-bulk-bar';
import { notify } from '../ui/toasts';
import type { BulkTagAction } from '@cronbeam/shared/tags/tags';
import { useDashboard } from '../dashboard/dashboard-store';
import { MonitorForm } from './monitor-form';
import { describeSchedule, formatSeconds, pingUrls } from './monitor-format';
import { MonitorStatusBadge } from './monitor-status-badge';
import { useMonitors } from './monitors-store';
import './monitors.css';

const EVENT_LABELS: Record<MonitorEvent['kind'], string> = { success: 'Ping', fail: 'Failure ping', start: 'Start', missed: 'Missed (went down)' };


/**
 * Monitors: heartbeat checks of jobs that run elsewhere. Each monitor has a
 * ping URL the job calls; a ping that does not come on schedule (plus the
 * grace time) marks it down and alerts, the next one brings it up.
 */
export default function MonitorsSection() {
  const { monitors, loaded, load, put, setPaused } = useMonitors();
  const [channels, setChannels] = useState<AlertChannel[]>([]);
  const [editing, setEditing] = useState<Monitor | 'new' | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Monitor | null>(null);
  const [tag, setTag] = useState('');
  const shown = monitors.filter((monitor) => carriesTag(monitor, tag));

  const bulkAction = async (action: BulkTagAction, chosen: string): Promise<boolean> => {
    try {
      const result = await monitorsApi.bulkAction(action, chosen);
      notify.success(`${result.count} ${result.count === 1 ? 'monitor' : 'monitors'} tagged '${chosen}' ${ACTION_DONE[action]}`);
      if (action === 'delete') setTag('');
      await load();
      // Monitors use job places: the dashboard's counts change with them.
      void useDashboard.getState().load('refresh');
      return true;
    } catch (error) {
      notify.error(`Failed to ${action} the monitors tagged '${chosen}': ${errorMessage(error)}`);
      return false;
    }
  };

  useEffect(() => {
    void load();
    alertChannelsApi.list().then(setChannels, () => setChannels([]));
  }, [load]);

  return (
    <section aria-labelledby="monitors-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="monitors-title">Monitors</h1>
          <p className="muted">Heartbeat checks for jobs that run elsewhere: the job calls its ping URL; a missing ping marks the monitor down and alerts you. Monitors count toward your plan’s job limit.</p>
        </div>
        <div className="button-row">
          <button type="button" className="button button-secondary" onClick={() => void load()}>
            Refresh
          </button>
          <button type="button" className="button button-primary" onClick={() => setEditing('new')} disabled={editing !== null}>
            New Monitor
          </button>
        </div>
      </div>
      {editing && (
        <MonitorForm
          key={editing === 'new' ? 'new' : editing.monitor_id}
          monitor={editing === 'new' ? undefined : editing}
          channels={channels}
          onCancel={() => setEditing(null)}
          onSaved={(saved) => {
            put(saved);
            setEditing(null);
            setOpenId(saved.monitor_id);
          }}
        />
      )}
      <div className="jobs-toolbar">
        <TagBulkBar id="monitors" noun="monitors" tags={tagsOf(monitors)} selected={tag} onSelect={setTag} count={shown.length} onAction={bulkAction} />
      </div>
      <div className="panel">
        {monitors.length === 0 ? (
          loaded && <p className="empty-state">No monitors yet. Create one and have your job call its ping URL when it runs.</p>
        ) : (
          <table className="data-table card-table monitors-table" aria-label="Monitors">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Last ping</th>
                <th scope="col">Expected</th>
                <th scope="col">Grace</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((monitor) => (
                <Fragment key={monitor.monitor_id}>
                  <tr>
                    <td data-label="Name" className="strong">
                      {monitor.name}
                      <TagChips tags={monitor.tags} />
                    </td>
                    <td data-label="Status">
                      <MonitorStatusBadge status={monitor.status} />
                    </td>
                    <td data-label="Last ping">{formatUtc(monitor.last_ping_at, 'Never')}</td>
                    <td data-label="Expected">{describeSchedule(monitor)}</td>
                    <td data-label="Grace">{formatSeconds(monitor.grace_seconds)}</td>
                    <td data-label="Actions">
                      <div className="row-actions">
                        <button type="button" className="button button-secondary button-small" aria-expanded={openId === monitor.monitor_id} onClick={() => setOpenId(openId === monitor.monitor_id ? null : monitor.monitor_id)}>
                          Details<span className="visually-hidden"> of {monitor.name}</span>
                        </button>
                        <button type="button" className="button button-secondary button-small" onClick={() => setEditing(monitor)}>
                          Edit<span className="visually-hidden"> {monitor.name}</span>
                        </button>
                        <button type="button" className="button button-secondary button-small" onClick={() => void setPaused(monitor, monitor.status !== 'paused')}>
                          {monitor.status === 'paused' ? 'Resume' : 'Pause'}
                          <span className="visually-hidden"> {monitor.name}</span>
                        </button>
                        <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(monitor)}>
                          Delete<span className="visually-hidden"> {monitor.name}</span>
                        </button>
                      </div>
                    </td>
                  </tr>
                  {openId === monitor.monitor_id && (
                    <tr className="monitor-details-row">
                      <td colSpan={6}>
                        <MonitorDetails monitor={monitor} channels={channels} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {deleting && <DeleteMonitorModal monitor={deleting} onClose={() => setDeleting(null)} />}
    </section>
  );
}

/** The ping URLs to copy, how to call them, the alert channels and the latest events. */
function MonitorDetails({ monitor, channels }: { monitor: Monitor; channels: AlertChannel[] }) {
  const [events, setEvents] = useState<MonitorEvent[] | null>(null);
  const load = useCallback(async () => {
    try {
      setEvents((await monitorsApi.events(monitor.monitor_id)).events);
    } catch (error) {
      notify.error(`Failed to load monitor events: ${errorMessage(error)}`);
    }
  }, [monitor.monitor_id]);
  useEffect(() => void load(), [load, monitor.last_ping_at, monitor.status]);
  const channelNames = monitor.channel_ids === null ? 'Channels that take every alert' : channels.filter((c) => monitor.channel_ids!.includes(c.channel_id)).map((c) => c.name).join(', ') || 'None (account email only)';

  return (
    <div className="monitor-details" data-testid="monitor-details">
      <div>
        <h3>Ping URLs</h3>
        <p className="muted">GET or POST. Call the success URL when the job finishes; /fail reports a failure at once; /start before the run measures its duration.</p>
        <ul className="ping-urls">
          {pingUrls(monitor).map(({ label, url }) => (
            <li key={label}>
              <span className="ping-label">{label}</span>
              <code className="ping-url" data-testid={`ping-url-${label.toLowerCase()}`}>
                {url}
              </code>
              <CopyButton value={url} label={`Copy ${label.toLowerCase()} ping URL of ${monitor.name}`} />
            </li>
          ))}
        </ul>
        <p className="muted">
          Example: <code>curl -fsS -m 10 --retry 3 {monitor.ping_url}</code>
        </p>
        <dl className="detail-grid">
          <dt>Next ping due by</dt>
          <dd>{monitor.status === 'up' ? formatUtc(monitor.due_at) : monitor.status === 'paused' ? 'Paused' : 'After the next ping'}</dd>
          <dt>Last run time</dt>
          <dd>{monitor.last_duration_ms === null ? '—' : `${monitor.last_duration_ms.toLocaleString('en-US')} ms`}</dd>
          <dt>Alert channels</dt>
          <dd>{channelNames}</dd>
        </dl>
      </div>
      <div>
        <h3>Recent events</h3>
        {events === null ? (
          <div className="spinner" role="status" aria-label="Loading events" />
        ) : events.length === 0 ? (
          <p className="muted">No pings yet.</p>
        ) : (
          <ol className="monitor-events" aria-label={`Recent events of ${monitor.name}`}>
            {events.slice(0, 20).map((event, index) => (
              <li key={`${event.at}-${index}`} className={`monitor-event-${event.kind}`}>
                <span>{EVENT_LABELS[event.kind]}</span>
                <span className="muted">{formatUtc(event.at)}</span>
                {event.duration_ms !== null && <span className="muted">{event.duration_ms.toLocaleString('en-US')} ms</span>}
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}

/** Asks before a monitor is deleted: its ping URL stops working. */
function DeleteMonitorModal({ monitor, onClose }: { monitor: Monitor; onClose(): void }) {
  const remove = useMonitors((s) => s.remove);
  return (
    <ConfirmDeleteModal title="Delete monitor" confirmLabel="Delete Monitor" onConfirm={() => remove(monitor)} onClose={onClose}>
      <p>
        Delete <strong>{monitor.name}</strong>? Its ping URL stops working and its history is removed. This cannot be undone.
      </p>
    </ConfirmDeleteModal>
  );
}
