import { JOB_STATUSES, type Job, type JobStatus } from '@cronbeam/shared/jobs/job-types';
import { useEffect, useState, type ReactNode } from 'react';
import { ApiRequestError, errorMessage, type JobLimitDetail } from '../api/api-error';
import { jobsApi } from '../api/jobs-api';
import { Link, useSearchParams } from 'react-router-dom';
import { filterJobs, useDashboard } from '../dashboard/dashboard-store';
import { CopyButton } from '../ui/copy-button';
import { ACTION_ICONS } from '../ui/action-icons';
import { formatUtc } from '../ui/format';
import { TableScroll } from '../ui/table-scroll';
import { ACTION_DONE, carriesTag, TagBulkBar, TagChips, tagsOf } from '../ui/tag-bulk-bar';
import { notify } from '../ui/toasts';
import type { BulkTagAction } from '@cronbeam/shared/tags/tags';
import { DeleteJobModal } from './delete-job-modal';
import { EditJobModal } from './edit-job-modal';
import { QuotaModal } from './form/quota-modal';
import { ImportJobsModal } from './import-jobs-modal';
import { JobLogsModal } from './job-logs-modal';
import { runJobNow } from './run-outcome';
import { StatusBadge } from './status-badge';

type Dialog = { kind: 'logs' | 'edit' | 'delete'; job: Job } | { kind: 'import' } | null;

const SORTS = {
  created: { label: 'Oldest first', compare: () => 0 },
  name: { label: 'Name (A-Z)', compare: (a: Job, b: Job) => a.name.localeCompare(b.name) },
  next: { label: 'Next run', compare: (a: Job, b: Job) => byTime(a.next_run_at, b.next_run_at) },
  last: { label: 'Last run (newest)', compare: (a: Job, b: Job) => byTime(b.last_run_at, a.last_run_at) },
} as const;
type SortKey = keyof typeof SORTS;

/** Earlier first; jobs without the time last. */
function byTime(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (!a) return 1;
  if (!b) return -1;
  return a < b ? -1 : 1;
}

/** The jobs the table shows: the top bar's name search, the status and tag filters, then the chosen order (the list comes oldest first). */
export function visibleJobs(jobs: Job[], search: string, status: JobStatus | 'all', sort: SortKey, tag = ''): Job[] {
  const matching = filterJobs(jobs, search).filter((job) => (status === 'all' || job.status === status) && carriesTag(job, tag));
  return [...matching].sort(SORTS[sort].compare);
}

/**
 * A run time in two short lines, date over time, so the two time columns
 * leave the table room for its actions on a laptop; one line on phones.
 */
function RunTime({ value, empty }: { value: string | null; empty: string }) {
  const text = formatUtc(value, empty);
  const split = text.lastIndexOf(', ');
  if (split < 0) return <>{text}</>;
  return (
    <span className="run-time">
      <span>{text.slice(0, split)},</span> <span>{text.slice(split + 2)}</span>
    </span>
  );
}

/** A compact row action: an icon, its word as the tooltip, the job's name in its accessible name. */
function IconAction({ label, name, icon, danger, disabled, onClick }: { label: string; name: string; icon: ReactNode; danger?: boolean; disabled?: boolean; onClick(): void }) {
  return (
    <button type="button" className={danger ? 'icon-button icon-action icon-action-danger' : 'icon-button icon-action'} title={label} aria-label={name} disabled={disabled} onClick={onClick}>
      {icon}
    </button>
  );
}

/** Saves the export as a file the import takes back. */
async function downloadExport(): Promise<void> {
  try {
    const data = await jobsApi.exportAll();
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `cronbeam-jobs-${data.exported_at.slice(0, 10)}.json`;
    link.click();
    URL.revokeObjectURL(url);
  } catch (error) {
    notify.error(`Failed to export jobs: ${errorMessage(error)}`);
  }
}

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
  /** The plan's job limit, when it refused a clone: the same dialog as the job form's. */
  const [limit, setLimit] = useState<JobLimitDetail | null>(null);
  const [status, setStatus] = useState<JobStatus | 'all'>('all');
  const [sort, setSort] = useState<SortKey>('created');
  const [tag, setTag] = useState('');
  const shown = visibleJobs(jobs, search, status, sort, tag);

  const bulkAction = async (action: BulkTagAction, chosen: string): Promise<boolean> => {
    try {
      const result = await jobsApi.bulkAction(action, chosen);
      notify.success(`${result.count} ${result.count === 1 ? 'job' : 'jobs'} tagged '${chosen}' ${ACTION_DONE[action]}`);
      if (action === 'delete') setTag('');
      await load('refresh');
      return true;
    } catch (error) {
      notify.error(`Failed to ${action} the jobs tagged '${chosen}': ${errorMessage(error)}`);
      return false;
    }
  };

  const clone = async (job: Job) => {
    setBusyId(job.job_id);
    try {
      const copy = await jobsApi.clone(job.job_id);
      notify.success(`Job '${job.name}' cloned as '${copy.name}'`);
      await load('refresh');
    } catch (error) {
      if (error instanceof ApiRequestError && error.jobLimit) setLimit(error.jobLimit);
      else notify.error(`Failed to clone job: ${errorMessage(error)}`);
    }
    setBusyId(null);
  };

  const runNow = async (job: Job) => {
    setBusyId(job.job_id);
    if (await runJobNow(job)) await load('refresh');
    setBusyId(null);
  };

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
          <p className="muted">Each schedule runs in its job's time zone; times below are UTC.</p>
        </div>
        <div className="button-row">
          <button type="button" className="button button-secondary" onClick={() => load('refresh')} disabled={loading}>
            {loading ? 'Refreshing...' : 'Refresh'}
          </button>
          <button type="button" className="button button-secondary" onClick={downloadExport} disabled={jobs.length === 0}>
            Export
          </button>
          <button type="button" className="button button-secondary" onClick={() => setDialog({ kind: 'import' })}>
            Import
          </button>
          <Link to="/dashboard/create" className="button button-primary">
            Create New Job
          </Link>
        </div>
      </div>
      <div className="jobs-toolbar">
        <label htmlFor="jobs-status-filter">Status</label>
        <select id="jobs-status-filter" value={status} onChange={(e) => setStatus(e.target.value as JobStatus | 'all')}>
          <option value="all">All statuses</option>
          {JOB_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
        <label htmlFor="jobs-sort">Sort by</label>
        <select id="jobs-sort" value={sort} onChange={(e) => setSort(e.target.value as SortKey)}>
          {Object.entries(SORTS).map(([key, { label }]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
        <TagBulkBar id="jobs" noun="jobs" tags={tagsOf(jobs)} selected={tag} onSelect={setTag} count={jobs.filter((job) => carriesTag(job, tag)).length} onAction={bulkAction} />
      </div>
      <div className="panel">
        {shown.length === 0 && loaded ? (
          <p className="empty-state">
            No jobs found. <Link to="/dashboard/create">Create your first job</Link>
          </p>
        ) : (
          <TableScroll label="Cron jobs">
            <table className="data-table card-table jobs-table" aria-label="Cron jobs">
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
                    <td data-label="Name" className="strong">
                      <span className="truncate name-cell" title={job.name}>
                        {job.name}
                      </span>
                      <TagChips tags={job.tags} />
                    </td>
                    <td data-label="URL">
                      <span className="truncate url-cell" title={job.url}>
                        {job.url}
                      </span>
                      {job.certificate_expires_at && (
                        <div className="muted">Certificate expires {formatUtc(job.certificate_expires_at)}</div>
                      )}
                    </td>
                    <td data-label="Method">
                      <span className="method">{job.method}</span>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={job.status} />
                    </td>
                    <td data-label="Next Run">
                      <RunTime value={job.next_run_at} empty="—" />
                    </td>
                    <td data-label="Last Run">
                      <RunTime value={job.last_run_at} empty="Never" />
                    </td>
                    <td data-label="Actions">
                      <div className="row-actions">
                        {/* aria-disabled, not disabled: a disabled button drops keyboard focus to the page while the run is under way. */}
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          aria-disabled={busyId === job.job_id}
                          onClick={() => busyId !== job.job_id && runNow(job)}
                        >
                          Run now<span className="visually-hidden"> {job.name}</span>
                        </button>
                        <IconAction
                          label={job.status === 'paused' ? 'Resume' : 'Pause'}
                          name={job.status === 'paused' ? `Resume ${job.name}` : `Pause ${job.name}`}
                          icon={job.status === 'paused' ? ACTION_ICONS.resume : ACTION_ICONS.pause}
                          disabled={busyId === job.job_id}
                          onClick={() => toggle(job)}
                        />
                        <IconAction label="Logs" name={`Logs of ${job.name}`} icon={ACTION_ICONS.logs} onClick={() => setDialog({ kind: 'logs', job })} />
                        <IconAction label="Edit" name={`Edit ${job.name}`} icon={ACTION_ICONS.edit} onClick={() => setDialog({ kind: 'edit', job })} />
                        <IconAction label="Clone" name={`Clone ${job.name}`} icon={ACTION_ICONS.clone} disabled={busyId === job.job_id} onClick={() => clone(job)} />
                        <IconAction label="Delete" name={`Delete ${job.name}`} icon={ACTION_ICONS.delete} danger onClick={() => setDialog({ kind: 'delete', job })} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </div>
      {dialog?.kind === 'logs' && <JobLogsModal job={dialog.job} onClose={closeDialog} />}
      {dialog?.kind === 'edit' && <EditJobModal job={dialog.job} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && <DeleteJobModal job={dialog.job} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'import' && <ImportJobsModal onClose={() => setDialog(null)} />}
      {limit && <QuotaModal limit={limit} onClose={() => setLimit(null)} />}
    </section>
  );
}
