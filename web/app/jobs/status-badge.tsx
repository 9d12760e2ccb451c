import type { JobStatus } from '@cronbeam/shared/jobs/job-types';

const LABELS: Record<JobStatus, string> = {
  pending: 'Pending',
  scheduled: 'Scheduled',
  success: 'Success',
  failed: 'Failed',
  paused: 'Paused',
  quota_reached: 'Quota reached',
};

/** A job's status as a coloured pill. */
export function StatusBadge({ status }: { status: JobStatus | string }) {
  const label = LABELS[status as JobStatus] ?? status;
  return <span className={`status-badge status-${status}`}>{label}</span>;
}
