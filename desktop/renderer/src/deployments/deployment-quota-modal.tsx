import type { DeploymentLimitExceeded } from '@shared/deployments/deployment-types';
import { PLAN_LIMITS } from '@shared/plans';
import { Link } from 'react-router-dom';
import { Modal } from '../ui/modal';

/** 'N8N Deployment Quota Exceeded': this month's use, the ways out, and every plan's limit. */
export function DeploymentQuotaModal({ limit, onClose }: { limit: DeploymentLimitExceeded; onClose(): void }) {
  return (
    <Modal
      title="N8N Deployment Quota Exceeded"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Close
          </button>
          <Link to="/pricing" className="button button-primary">
            View Plans
          </Link>
        </>
      }
    >
      <p>You have used all the n8n deployments your plan includes this month.</p>
      <dl className="detail-grid">
        <dt>Plan</dt>
        <dd className="plan-name">{limit.plan}</dd>
        <dt>Deployments this month</dt>
        <dd>
          {limit.deployments_used} / {limit.deployments_quota}
        </dd>
      </dl>
      <p className="muted">Wait for next month, when the count starts again, or upgrade your plan for more deployments.</p>
      <table className="data-table compact-table" aria-label="Deployments per plan">
        <thead>
          <tr>
            <th>Plan</th>
            <th>Deployments per month</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Free</td>
            <td>{PLAN_LIMITS.free.deploymentsPerMonth}</td>
          </tr>
          <tr>
            <td>Basic</td>
            <td>{PLAN_LIMITS.basic.deploymentsPerMonth}</td>
          </tr>
          <tr>
            <td>Pro</td>
            <td>{PLAN_LIMITS.pro.deploymentsPerMonth}</td>
          </tr>
        </tbody>
      </table>
    </Modal>
  );
}
