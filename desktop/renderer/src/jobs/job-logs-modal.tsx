import type { Job } from '@shared/jobs/job-types';
import { useState } from 'react';
import { ExecutionDetails } from '../monitoring/execution-details';
import { ExecutionList } from '../monitoring/execution-list';
import { useJobLogs } from '../monitoring/job-logs';
import { Modal } from '../ui/modal';

/** A job's latest executions, with the details of the one picked. */
export function JobLogsModal({ job, onClose }: { job: Job; onClose(): void }) {
  const { logs, loading, error } = useJobLogs(job.job_id);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = logs.find((l) => l.run_id === selectedId) ?? logs[0];
  return (
    <Modal title={`Logs: ${job.name}`} onClose={onClose} wide>
      {error && <div className="alert alert-error" role="alert">{error}</div>}
      {loading && logs.length === 0 && <div className="spinner" role="status" aria-label="Loading logs" />}
      {!loading && !error && logs.length === 0 && <p className="empty-state">No executions yet.</p>}
      {logs.length > 0 && (
        <div className="split-view">
          <ExecutionList logs={logs} selectedId={selected?.run_id ?? null} onSelect={(entry) => setSelectedId(entry.run_id)} />
          {selected && <ExecutionDetails entry={selected} />}
        </div>
      )}
    </Modal>
  );
}
