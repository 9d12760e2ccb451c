import type { JobImportRequest, JobImportResult } from '@cronbeam/shared/jobs/job-transfer';
import { useState } from 'react';
import { errorMessage } from '../api/api-error';
import { jobsApi } from '../api/jobs-api';
import { useDashboard } from '../dashboard/dashboard-store';
import { Modal } from '../ui/modal';
import { notify } from '../ui/toasts';

type Format = JobImportRequest['format'];

/**
 * Import from a Cronbeam export or a crontab: the server's dry run shows what
 * would be created and what is refused (with reasons) before anything is.
 */
export function ImportJobsModal({ onClose }: { onClose(): void }) {
  const load = useDashboard((s) => s.load);
  const [format, setFormat] = useState<Format>('crontab');
  const [content, setContent] = useState('');
  const [preview, setPreview] = useState<JobImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const edit = (apply: () => void) => {
    apply();
    setPreview(null);
    setError(null);
  };

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    const text = await file.text();
    edit(() => {
      setContent(text);
      setFormat(/\.json$/i.test(file.name) ? 'json' : 'crontab');
    });
  };

  const send = async (dryRun: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const result = await jobsApi.importJobs({ format, content, dry_run: dryRun });
      if (dryRun) setPreview(result);
      else {
        notify.success(`Imported ${result.created} job${result.created === 1 ? '' : 's'}${result.refused ? `, ${result.refused} refused` : ''}`);
        await load('refresh');
        onClose();
      }
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const creatable = preview?.created ?? 0;
  return (
    <Modal
      title="Import jobs"
      wide
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-secondary" onClick={() => send(true)} disabled={busy || !content.trim()}>
            Preview
          </button>
          <button type="button" className="button button-primary" onClick={() => send(false)} disabled={busy || !preview || creatable === 0}>
            {`Import ${creatable} job${creatable === 1 ? '' : 's'}`}
          </button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="import-format">Format</label>
        <select id="import-format" value={format} onChange={(e) => edit(() => setFormat(e.target.value as Format))}>
          <option value="crontab">Crontab (lines whose command calls a URL)</option>
          <option value="json">Cronbeam export (JSON)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="import-file">File</label>
        <input id="import-file" type="file" accept=".json,.txt,.cron,text/plain,application/json" onChange={(e) => readFile(e.target.files?.[0])} />
      </div>
      <div className="field">
        <label htmlFor="import-content">Content</label>
        <textarea id="import-content" className="mono" rows={8} value={content} spellCheck={false} onChange={(e) => edit(() => setContent(e.target.value))} />
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {preview && (
        <table className="data-table" aria-label="Import preview">
          <thead>
            <tr>
              <th scope="col">{format === 'crontab' ? 'Line' : 'Entry'}</th>
              <th scope="col">Name</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {preview.items.map((item) => (
              <tr key={item.source} data-action={item.action}>
                <td>{item.source}</td>
                <td>{item.name ?? '—'}</td>
                <td>{item.action === 'create' ? `Will be created (${item.definition?.cron_expression}, ${item.definition?.time_zone})` : `Refused: ${item.reason}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Modal>
  );
}
