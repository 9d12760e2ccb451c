import type { Job } from '@shared/jobs/job-types';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { filterJobs, useDashboard } from '../dashboard/dashboard-store';
import { CopyButton } from '../ui/copy-button';
import { formatUtc } from '../ui/format';
import { DeleteJobModal } from './delete-job-modal';
import { EditJobModal } from './edit-job-modal';
import { JobLogsModal } from './job-logs-modal';
import { StatusBadge } from './status-badge';

type Dialog = { kind: 'logs' | 'edit' | 'delete'; job: Job } | null;

/** The Cron Jobs section: every job with pause/resume, logs, edit and delete. */
export default function JobsSection() {
  const { jobs, loading, loaded, load, pause, resume, search } = useDashboard();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [params, setParams] = useSearchParams();
  const logsFor = params.get('logs');

  // `?logs=<job id>` opens that job's logs: where a desktop notification, the tray or a cronbeam:// link leads.
  useEffect(() => {
    const job = logsFor ? jobs.find((j) => j.job_id === logsFor) : undefined;
    if (job) setDialog({ kind: 'logs', job });
  }, [logsFor, jobs]);

  const closeDialog = () => {
    setDialog(null);
    if (logsFor) setParams({}, { replace: true });
  };
  const [busyId, setBusyId] = useState<string | null>(null);
  const shown = filterJobs(jobs, search);

  const toggle = async (job: Job) => {
    setBusyId(job.job_id);
    await (job.status === 'paused' ? resume(job) : pause(job));
    setBusyId(null);
  };

  return (
    <section aria-labelledby="jobs-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="jobs-title">Cron Jobs</h1>
          <p className="muted">All schedules run in UTC.</p>
        </div>
        <div className="button-row">
          <button type="button" className="button button-secondary" onClick={() => load('refresh')} disabled={loading}>
            {loading ? 'Refreshing...' : 'Refresh'}
          </button>
          <Link to="/dashboard/create" className="button button-primary">
            Create New Job
          </Link>
        </div>
      </div>
      <div className="panel">
        {shown.length === 0 && loaded ? (
          <p className="empty-state">
            No jobs found. <Link to="/dashboard/create">Create your first job</Link>
          </p>
        ) : (
          <div className="table-scroll">
            <table className="data-table jobs-table" aria-label="Cron jobs">
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">Name</th>
                  <th scope="col">URL</th>
                  <th scope="col">Method</th>
                  <th scope="col">Status</th>
                  <th scope="col">Next Run</th>
                  <th scope="col">Last Run</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((job) => (
                  <tr key={job.job_id} data-job-id={job.job_id}>
                    <td data-label="ID">
                      <span className="id-cell">
                        <span className="mono" title={job.job_id}>
                          {job.job_id.slice(0, 8)}
                        </span>
                        <CopyButton value={job.job_id} label={`Copy job ID of ${job.name}`} />
                      </span>
                    </td>
                    <td data-label="Name" className="strong">{job.name}</td>
                    <td data-label="URL">
                      <span className="truncate url-cell" title={job.url}>
                        {job.url}
                      </span>
                    </td>
                    <td data-label="Method">
                      <span className="method">{job.method}</span>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={job.status} />
                    </td>
                    <td data-label="Next Run" className="nowrap">{formatUtc(job.next_run_at)}</td>
                    <td data-label="Last Run" className="nowrap">{formatUtc(job.last_run_at, 'Never')}</td>
                    <td data-label="Actions">
                      <div className="row-actions">
                        <button type="button" className="button button-secondary button-small" disabled={busyId === job.job_id} onClick={() => toggle(job)}>
                          {job.status === 'paused' ? 'Resume' : 'Pause'}
                          <span className="visually-hidden"> {job.name}</span>
                        </button>
                        <button type="button" className="button button-secondary button-small" onClick={() => setDialog({ kind: 'logs', job })}>
                          Logs<span className="visually-hidden"> of {job.name}</span>
                        </button>
                        <button type="button" className="button button-secondary button-small" onClick={() => setDialog({ kind: 'edit', job })}>
                          Edit<span className="visually-hidden"> {job.name}</span>
                        </button>
                        <button type="button" className="button button-small button-danger-outline" onClick={() => setDialog({ kind: 'delete', job })}>
                          Delete<span className="visually-hidden"> {job.name}</span>
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      {dialog?.kind === 'logs' && <JobLogsModal job={dialog.job} onClose={closeDialog} />}
      {dialog?.kind === 'edit' && <EditJobModal job={dialog.job} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && <DeleteJobModal job={dialog.job} onClose={() => setDialog(null)} />}
    </section>
  );
}
