import { Link } from 'react-router-dom';
import type { JobLimitDetail } from '../../api/api-error';
import { ERROR_TEXT } from '../../api/error-messages';
import { Modal } from '../../ui/modal';

/** 'Job Quota Exceeded': the plan, its use, and the ways out. */
export function QuotaModal({ limit, onClose }: { limit: JobLimitDetail; onClose(): void }) {
  return (
    <Modal
      title="Job Quota Exceeded"
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
      <p>{ERROR_TEXT.jobLimit}</p>
      <dl className="detail-grid">
        <dt>Plan</dt>
        <dd className="plan-name">{limit.plan}</dd>
        <dt>Jobs used</dt>
        <dd>
          {limit.job_count} / {limit.max_jobs}
        </dd>
      </dl>
      <p className="muted">Delete jobs you no longer need, or upgrade your plan for more jobs and executions.</p>
    </Modal>
  );
}
