import type { Job } from '@cronbeam/shared/jobs/job-types';
import { useState } from 'react';
import { useDashboard } from '../dashboard/dashboard-store';
import { ExecutionDetails } from '../monitoring/execution-details';
import { ExecutionList } from '../monitoring/execution-list';
import { useJobLogs } from '../monitoring/job-logs';
import { Modal } from '../ui/modal';
import { runJobNow } from './run-outcome';

/** A job's latest executions, with the details of the one picked, and a button to run it now. */
export function JobLogsModal({ job, onClose }: { job: Job; onClose(): void }) {
  const { dueRuns, logs, loading, error, reload } = useJobLogs(job.job_id);
  const reloadJobs = useDashboard((s) => s.load);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const selected = logs.find((l) => l.run_id === selectedId) ?? logs[0];

  const runNow = async () => {
    setRunning(true);
    if (await runJobNow(job)) {
      // The new run is the newest entry: show it.
      setSelectedId(null);
      await Promise.all([reload(), reloadJobs('refresh')]);
    }
    setRunning(false);
  };

  return (
    <Modal title={`Logs: ${job.name}`} onClose={onClose} wide>
      <div className="button-row modal-toolbar">
        {/* aria-disabled, not disabled: a disabled button drops keyboard focus to the page while the run is under way. */}
        <button type="button" className="button button-secondary button-small" onClick={() => !running && runNow()} aria-disabled={running}>
          {running ? 'Running...' : 'Run now'}
        </button>
      </div>
      {error && <div className="alert alert-error" role="alert">{error}</div>}
      {loading && logs.length === 0 && <div className="spinner" role="status" aria-label="Loading logs" />}
      {!loading && !error && logs.length === 0 && <p className="empty-state">No executions yet.</p>}
      {logs.length > 0 && (
        <div className="split-view">
          <ExecutionList runs={dueRuns} selectedId={selected?.run_id ?? null} onSelect={(entry) => setSelectedId(entry.run_id)} />
          {selected && <ExecutionDetails entry={selected} />}
        </div>
      )}
    </Modal>
  );
}
