import type { Job } from '@cronbeam/shared/jobs/job-types';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { CreatedJob } from '../api/jobs-api';
import { useDashboard } from '../dashboard/dashboard-store';
import { CopyButton } from '../ui/copy-button';
import { formatUtc } from '../ui/format';
import { notify } from '../ui/toasts';
import { JobForm } from './form/job-form';
import { runJobNow } from './run-outcome';
import { StatusBadge } from './status-badge';

/**
 * The Create Job section: the form, then a success box with the new job's id.
 * After a job is created the box takes the focus and scrolls into view (it sits
 * above the form) and the form starts empty, so a second click cannot send the
 * same job again.
 */
export default function CreateJobSection() {
  const load = useDashboard((s) => s.load);
  const [created, setCreated] = useState<CreatedJob | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [running, setRunning] = useState(false);
  const resultBox = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!created) return;
    resultBox.current?.focus({ preventScroll: true });
    resultBox.current?.scrollIntoView({ block: 'start' });
  }, [created]);

  const onSaved = (job: CreatedJob | Job) => {
    setCreated(job);
    setFormKey((k) => k + 1);
    notify.success(`Job '${job.name}' created`);
    void load();
  };

  const runCreated = async (job: CreatedJob) => {
    setRunning(true);
    if (await runJobNow(job)) void load('refresh');
    setRunning(false);
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
        <div className="success-box" role="status" tabIndex={-1} ref={resultBox} aria-labelledby="created-title">
          <h2 id="created-title">Job created</h2>
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
            {created.signing_secret && (
              <>
                <dt>Signing secret</dt>
                <dd className="id-cell">
                  <span className="mono" data-testid="created-signing-secret">
                    {created.signing_secret}
                  </span>
                  <CopyButton value={created.signing_secret} label="Copy signing secret" />
                </dd>
              </>
            )}
          </dl>
          {created.signing_secret && <p className="field-hint">Shown this once: your target verifies the X-Cronbeam-Signature header of each request (and run callback) with it. Rotate it from the job&apos;s edit form.</p>}
          <div className="button-row">
            {/* aria-disabled, not disabled: a disabled button drops keyboard focus to the page while the run is under way. */}
            <button type="button" className="button button-secondary button-small" onClick={() => !running && runCreated(created)} aria-disabled={running}>
              {running ? 'Running...' : 'Run now'}
            </button>
            <Link to="/dashboard/jobs" className="button button-secondary button-small">
              View in Cron Jobs
            </Link>
          </div>
        </div>
      )}
      <div className="panel panel-padded">
        <JobForm key={formKey} onSaved={onSaved} />
      </div>
    </section>
  );
}
