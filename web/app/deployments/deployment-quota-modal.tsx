import type { DeploymentLimitExceeded } from '@cronbeam/shared/deployments/deployment-types';
import { PLAN_LIMITS } from '@cronbeam/shared/plans';
import { PlanLimitModal } from '../ui/plan-limit-modal';

/** 'N8N Deployment Quota Exceeded': this month's use, the ways out, and every plan's limit. */
export function DeploymentQuotaModal({ limit, onClose }: { limit: DeploymentLimitExceeded; onClose(): void }) {
  return (
    <PlanLimitModal
      title="N8N Deployment Quota Exceeded"
      message="You have used all the n8n deployments your plan includes this month."
      plan={limit.plan}
      usageLabel="Deployments this month"
      used={limit.deployments_used}
      allowed={limit.deployments_quota}
      advice="Wait for next month, when the count starts again, or upgrade your plan for more deployments."
      onClose={onClose}
    >
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
    </PlanLimitModal>
  );
}
