import type { Job } from '@cronbeam/shared/jobs/job-types';
import { useDashboard } from '../dashboard/dashboard-store';
import { Modal } from '../ui/modal';
import { notify } from '../ui/toasts';
import { JobForm } from './form/job-form';

/** Edits a job in a modal; on success it closes and the list is reloaded. */
export function EditJobModal({ job, onClose }: { job: Job; onClose(): void }) {
  const load = useDashboard((s) => s.load);
  return (
    <Modal title={`Edit job: ${job.name}`} onClose={onClose} wide>
      <JobForm
        job={job}
        onCancel={onClose}
        onSaved={() => {
          notify.success(`Job '${job.name}' updated`);
          onClose();
          void load();
        }}
      />
    </Modal>
  );
}
