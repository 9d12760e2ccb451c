import { useDashboard } from '../dashboard/dashboard-store';
import { useConnection, type ConnectionState } from '../dashboard/use-backend-connection';
import { formatCount } from '../ui/format';

const API_STATUS: Record<ConnectionState, string> = { checking: 'Checking', connected: 'Online', disconnected: 'Offline' };

/** Queue health, API status and execution quota use. */
export function SystemStatus() {
  const connection = useConnection((s) => s.state);
  const stats = useDashboard((s) => s.stats);
  return (
    <div className="panel panel-padded system-status">
      <h2>System Status</h2>
      <dl className="status-list">
        <div>
          <dt>Queue Health</dt>
          <dd>
            <span className="dot dot-success" aria-hidden="true" /> Normal
          </dd>
        </div>
        <div>
          <dt>API Status</dt>
          <dd>
            <span className={`dot ${connection === 'connected' ? 'dot-success' : connection === 'checking' ? 'dot-pending' : 'dot-failed'}`} aria-hidden="true" />{' '}
            {API_STATUS[connection]}
          </dd>
        </div>
        <div>
          <dt>Executions</dt>
          <dd>
            {formatCount(stats?.executions_used)} / {formatCount(stats?.execution_quota ?? 1000)}
          </dd>
        </div>
      </dl>
    </div>
  );
}
