import type { ConnectionState } from './use-backend-connection';

const LABELS: Record<ConnectionState, string> = {
  checking: 'Checking...',
  connected: 'Connected',
  disconnected: 'Disconnected',
};

/** The backend connection badge of the top bar. */
export function ConnectionBadge({ state }: { state: ConnectionState }) {
  return (
    <span className={`connection-badge connection-${state}`} role="status" aria-label={`Backend: ${LABELS[state]}`}>
      <span className="connection-dot" aria-hidden="true" />
      {LABELS[state]}
    </span>
  );
}
