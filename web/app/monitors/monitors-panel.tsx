import type { MonitorStatus } from '@cronbeam/shared/notifications/monitors';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { formatUtc } from '../ui/format';
import { describeSchedule } from './monitor-format';
import { MonitorStatusBadge } from './monitor-status-badge';
import { useMonitors } from './monitors-store';

/** Down monitors first: they are what the overview is for. */
const ORDER: Record<MonitorStatus, number> = { down: 0, up: 1, new: 2, paused: 3 };
export const MONITORS_PANEL_SIZE = 5;

/** The Dashboard's monitors beside its jobs: the first few, down ones first; nothing until the user has one. */
export function MonitorsPanel() {
  const { monitors, load } = useMonitors();
  useEffect(() => void load(true), [load]);
  if (monitors.length === 0) return null;
  const shown = [...monitors].sort((a, b) => ORDER[a.status] - ORDER[b.status]).slice(0, MONITORS_PANEL_SIZE);
  return (
    <div className="panel">
      <div className="panel-header">
        <h2>Monitors</h2>
        <Link to="/dashboard/monitors" className="link-muted">
          View all monitors
        </Link>
      </div>
      <div className="table-scroll">
      <table className="data-table" aria-label="Monitors overview">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Last ping</th>
            <th scope="col">Expected</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((monitor) => (
            <tr key={monitor.monitor_id}>
              <td className="strong">{monitor.name}</td>
              <td>
                <MonitorStatusBadge status={monitor.status} />
              </td>
              <td>{formatUtc(monitor.last_ping_at, 'Never')}</td>
              <td>{describeSchedule(monitor)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </div>
  );
}
