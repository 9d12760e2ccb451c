import type { Deployment, DeploymentStepState } from '@cronbeam/shared/deployments/deployment-types';
import { findRegion } from '@cronbeam/shared/deployments/regions';
import { useState } from 'react';
import { errorMessage } from '../api/api-error';
import { scrubSecrets } from '../api/error-messages';
import { Modal } from '../ui/modal';
import { notify } from '../ui/toasts';
import { deploymentsApi } from './deployments-api';

const STEP_MARK: Record<DeploymentStepState, string> = { pending: '○', running: '◌', done: '✓', failed: '✕', undone: '↺' };
const STEP_STATE_TEXT: Record<DeploymentStepState, string> = { pending: 'pending', running: 'in progress', done: 'done', failed: 'failed', undone: 'rolled back' };

/** The steps of one deployment as a checklist, each with its state (and error). */
function StepList({ deployment }: { deployment: Deployment }) {
  return (
    <ol className="deploy-steps" aria-label={`Steps of ${deployment.name}`}>
      {deployment.steps.map((step) => (
        <li key={step.name} className={`deploy-step deploy-step-${step.state}`} data-step={step.name} data-state={step.state}>
          <span className="deploy-step-mark" aria-hidden="true">
            {STEP_MARK[step.state]}
          </span>
          <span className="deploy-step-label">{step.label}</span>
          <span className="deploy-step-state">{STEP_STATE_TEXT[step.state]}</span>
          {step.error && <span className="deploy-step-error">{scrubSecrets(step.error)}</span>}
        </li>
      ))}
    </ol>
  );
}

/** Asks for the Fly token again (Cronbeam never kept it) and tears the instance down. */
function DeleteDeploymentModal({ deployment, onClose, onDeleted }: { deployment: Deployment; onClose(): void; onDeleted(d: Deployment): void }) {
  const [flyToken, setFlyToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await deploymentsApi.remove(deployment.deployment_id, flyToken);
      notify.success(`Deployment '${deployment.name}' deleted`);
      onDeleted(result.deployment);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title="Delete deployment"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-danger" disabled={busy || flyToken.length < 10} onClick={() => void submit()}>
            {busy ? 'Deleting...' : 'Delete'}
          </button>
        </>
      }
    >
      <p>
        This removes <strong>{deployment.app_name}</strong> (its machine, volume and data) from your Fly.io account. Paste your Fly.io API
        token again: Cronbeam deleted it after creating the instance.
      </p>
      <div className="field">
        <label htmlFor="teardown-token">Fly.io API token</label>
        <input id="teardown-token" type="password" autoComplete="off" value={flyToken} onChange={(e) => setFlyToken(e.target.value)} />
      </div>
      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}
    </Modal>
  );
}

/** The user's deployments, newest first, each with its live steps and, once live, the link to the instance. */
export function DeploymentList({ deployments, onChanged }: { deployments: Deployment[]; onChanged(d: Deployment): void }) {
  const [deleting, setDeleting] = useState<Deployment | null>(null);
  if (deployments.length === 0) return <p className="empty-state">No deployments yet.</p>;
  return (
    <>
      <ul className="deployment-list" aria-label="Your n8n deployments">
        {deployments.map((d) => (
          <li key={d.deployment_id} className="panel panel-padded deployment-card" data-deployment={d.deployment_id}>
            <div className="deployment-card-header">
              <div>
                <h3>{d.name}</h3>
                <span className="muted">
                  {findRegion(d.region)?.name ?? d.region} · {d.ram_mb} MB · ~${d.estimated_monthly_cost.toFixed(2)}/month
                </span>
              </div>
              <span className={`status-badge deploy-status-${d.status}`} data-testid="deployment-status">
                {d.status}
              </span>
            </div>
            {d.status === 'live' && (
              <p>
                Your instance:{' '}
                <a href={d.url} target="_blank" rel="noreferrer" className="deployment-link">
                  {d.url}
                </a>
              </p>
            )}
            {d.status === 'failed' && d.error && (
              <p className="error-text" role="status">
                Deployment failed: {scrubSecrets(d.error)}
              </p>
            )}
            {d.status !== 'deleted' && <StepList deployment={d} />}
            {(d.status === 'live' || d.status === 'failed') && (
              <button type="button" className="button button-danger-outline button-small" onClick={() => setDeleting(d)}>
                Delete deployment
              </button>
            )}
          </li>
        ))}
      </ul>
      {deleting && (
        <DeleteDeploymentModal
          deployment={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(d) => {
            setDeleting(null);
            onChanged(d);
          }}
        />
      )}
    </>
  );
}
