import type { Job } from '@shared/jobs/job-types';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { CreatedJob } from '../api/jobs-api';
import { useDashboard } from '../dashboard/dashboard-store';
import { CopyButton } from '../ui/copy-button';
import { formatUtc } from '../ui/format';
import { notify } from '../ui/toasts';
import { JobForm } from './form/job-form';
import { StatusBadge } from './status-badge';

/** The Create Job section: the form, then a success box with the new job's id. */
export default function CreateJobSection() {
  const load = useDashboard((s) => s.load);
  const [created, setCreated] = useState<CreatedJob | null>(null);
  const [formKey, setFormKey] = useState(0);

  const onSaved = (job: CreatedJob | Job) => {
    setCreated(job);
    notify.success(`Job '${job.name}' created`);
    void load();
  };

  return (
    <section aria-labelledby="create-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="create-title">Create Job</h1>
          <p className="muted">Schedule an HTTP request. Times are UTC.</p>
        </div>
        <Link to="/dashboard/jobs" className="button button-secondary">
          ← Back to Jobs
        </Link>
      </div>
      {created && (
        <div className="success-box" role="status">
          <h2>Job created</h2>
          <dl className="detail-grid">
            <dt>Job ID</dt>
            <dd className="id-cell">
              <span className="mono" data-testid="created-job-id">
                {created.job_id}
              </span>
              <CopyButton value={created.job_id} label="Copy job ID" />
            </dd>
            <dt>Name</dt>
            <dd>{created.name}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={created.status} />
            </dd>
            <dt>Next run</dt>
            <dd>{formatUtc(created.next_run_at)}</dd>
          </dl>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => {
              setCreated(null);
              setFormKey((k) => k + 1);
            }}
          >
            Create another job
          </button>
        </div>
      )}
      <div className="panel panel-padded">
        <JobForm key={formKey} onSaved={onSaved} />
      </div>
    </section>
  );
}
