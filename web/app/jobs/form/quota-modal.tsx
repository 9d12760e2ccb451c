import type { JobLimitDetail } from '../../api/api-error';
import { ERROR_TEXT } from '../../api/error-messages';
import { PlanLimitModal } from '../../ui/plan-limit-modal';

/** 'Job Quota Exceeded': the plan, its use, and the ways out. */
export function QuotaModal({ limit, onClose }: { limit: JobLimitDetail; onClose(): void }) {
  return (
    <PlanLimitModal
      title="Job Quota Exceeded"
      message={ERROR_TEXT.jobLimit}
      plan={limit.plan}
      usageLabel="Jobs used"
      used={limit.job_count}
      allowed={limit.max_jobs}
      advice="Delete jobs you no longer need, or upgrade your plan for more jobs and executions."
      onClose={onClose}
    />
  );
}
