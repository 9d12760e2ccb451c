import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { filterJobs, useDashboard } from '../dashboard/dashboard-store';
import { StatusBadge } from '../jobs/status-badge';
import { ExecutionDetails } from './execution-details';
import { useExecutionEvents, type ExecutionEvent } from './execution-events';
import { ExecutionList } from './execution-list';
import { useJobLogs } from './job-logs';
import { RunsChart } from './runs-chart';
import { SystemStatus } from './system-status';

/** Monitoring: pick a job, see its latest executions, their details and a chart; live from the event stream. */
export default function MonitoringSection() {
  const jobs = useDashboard((s) => s.jobs);
  const reloadJobs = useDashboard((s) => s.load);
  const [filter, setFilter] = useState('');
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const shown = filterJobs(jobs, filter);
  const jobId = chosenId ?? jobs[0]?.job_id ?? null;
  const job = jobs.find((j) => j.job_id === jobId) ?? null;
  const { dueRuns, logs, history, loading, error, reload } = useJobLogs(jobId);
  const selected = logs.find((l) => l.run_id === runId) ?? logs[0] ?? null;

  const onEvent = useCallback(
    (event: ExecutionEvent) => {
      if (event.job_id === jobId) void reload();
      void reloadJobs();
    },
    [jobId, reload, reloadJobs],
  );
  useExecutionEvents(onEvent);

  return (
    <section aria-labelledby="monitoring-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="monitoring-title">Monitoring</h1>
          <p className="muted">Executions appear here as they happen.</p>
        </div>
        <button type="button" className="button button-secondary" onClick={() => reload()} disabled={!jobId || loading}>
          {loading ? 'Refreshing...' : 'Refresh logs'}
        </button>
      </div>
      <div className="monitoring-grid">
        <aside className="panel panel-padded job-picker">
          <label htmlFor="monitor-filter" className="field-label">
            Filter jobs by name
          </label>
          <input id="monitor-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Job name" />
          <ul className="job-pick-list" aria-label="Jobs">
            {shown.map((j) => (
              <li key={j.job_id}>
                <button
                  type="button"
                  className={j.job_id === jobId ? 'job-pick selected' : 'job-pick'}
                  aria-pressed={j.job_id === jobId}
                  onClick={() => {
                    setChosenId(j.job_id);
                    setRunId(null);
                  }}
                >
                  <span className="job-pick-name">{j.name}</span>
                  <StatusBadge status={j.status} />
                </button>
              </li>
            ))}
          </ul>
          {jobs.length === 0 && (
            <p className="empty-state">
              No jobs found. <Link to="/dashboard/create">Create your first job</Link>
            </p>
          )}
          {jobs.length > 0 && shown.length === 0 && <p className="muted">No job name contains “{filter}”.</p>}
        </aside>
        <div className="monitoring-main">
          {job && (
            <div className="panel panel-padded">
              <div className="panel-header">
                <h2>{job.name}</h2>
                <span className="mono muted">{job.cron_expression}</span>
              </div>
              {error && (
                <div className="alert alert-error" role="alert">
                  {error}
                </div>
              )}
              <RunsChart history={history} />
              {!loading && !error && logs.length === 0 && <p className="empty-state">No executions yet. Runs show here as they happen.</p>}
              {logs.length > 0 && (
                <div className="split-view">
                  <ExecutionList runs={dueRuns} selectedId={selected?.run_id ?? null} onSelect={(entry) => setRunId(entry.run_id)} />
                  {selected && <ExecutionDetails entry={selected} />}
                </div>
              )}
            </div>
          )}
          <SystemStatus />
        </div>
      </div>
    </section>
  );
}
