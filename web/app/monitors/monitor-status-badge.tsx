import type { MonitorStatus } from '@cronbeam/shared/notifications/monitors';
import './monitors.css';

const LABELS: Record<MonitorStatus, string> = { new: 'New', up: 'Up', down: 'Down', paused: 'Paused' };

/** A monitor's status as a coloured pill. */
export function MonitorStatusBadge({ status }: { status: MonitorStatus }) {
  return <span className={`status-badge monitor-status-${status}`}>{LABELS[status]}</span>;
}
