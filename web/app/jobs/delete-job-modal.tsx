import type { Job } from '@cronbeam/shared/jobs/job-types';
import { useDashboard } from '../dashboard/dashboard-store';
import { ConfirmDeleteModal } from '../ui/confirm-delete-modal';

/** Asks before a job and its history are deleted. */
export function DeleteJobModal({ job, onClose }: { job: Job; onClose(): void }) {
  const remove = useDashboard((s) => s.remove);
  return (
    <ConfirmDeleteModal title="Delete job" confirmLabel="Delete Job" onConfirm={() => remove(job)} onClose={onClose}>
      <p>
        Delete <strong>{job.name}</strong>? Its schedule stops and its execution history is removed. This cannot be undone.
      </p>
    </ConfirmDeleteModal>
  );
}
