import type { Job } from '@shared/jobs/job-types';
import { useState } from 'react';
import { useDashboard } from '../dashboard/dashboard-store';
import { Modal } from '../ui/modal';

/** Asks before a job and its history are deleted. */
export function DeleteJobModal({ job, onClose }: { job: Job; onClose(): void }) {
  const remove = useDashboard((s) => s.remove);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    if (await remove(job)) onClose();
    else setBusy(false);
  };
  return (
    <Modal
      title="Delete job"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
            {busy ? 'Deleting...' : 'Delete Job'}
          </button>
        </>
      }
    >
      <p>
        Delete <strong>{job.name}</strong>? Its schedule stops and its execution history is removed. This cannot be undone.
      </p>
    </Modal>
  );
}
