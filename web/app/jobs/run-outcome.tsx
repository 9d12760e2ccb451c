import type { Job } from '@cronbeam/shared/jobs/job-types';
import { errorMessage } from '../api/api-error';
import { jobsApi, type RunOutcome } from '../api/jobs-api';
import { notify } from '../ui/toasts';

/** "SUCCESS · HTTP 200 · 45 ms": the outcome in one line, as the execution list words it. */
export function outcomeSummary(outcome: RunOutcome): string {
  return [
    outcome.status === 'success' ? 'SUCCESS' : 'FAILED',
    outcome.response_code != null ? `HTTP ${outcome.response_code}` : 'no HTTP response',
    outcome.duration_ms != null ? `${outcome.duration_ms} ms` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Runs a saved job now (logged as a manual run, counted in the quota) and
 * says how it went in a toast. Answers whether the run was made.
 */
export async function runJobNow(job: Pick<Job, 'job_id' | 'name'>): Promise<boolean> {
  try {
    const outcome = await jobsApi.runNow(job.job_id);
    const text = `Ran '${job.name}': ${outcomeSummary(outcome)}`;
    if (outcome.status === 'success') notify.success(text);
    else notify.error(outcome.error_message ? `${text}. ${outcome.error_message}` : text);
    return true;
  } catch (error) {
    notify.error(`Failed to run job: ${errorMessage(error)}`);
    return false;
  }
}

/** A test request's answer: status, code and time, the error if any, and the response body. */
export function RunOutcomeView({ outcome }: { outcome: RunOutcome }) {
  const success = outcome.status === 'success';
  return (
    <div className="run-outcome">
      <dl className="detail-grid">
        <dt>Status</dt>
        <dd>
          <span className={`status-badge ${success ? 'status-success' : 'status-failed'}`}>{success ? 'SUCCESS' : 'FAILED'}</span>
          {outcome.response_code != null && <span className="status-code">HTTP {outcome.response_code}</span>}
        </dd>
        <dt>Time</dt>
        <dd>{outcome.duration_ms != null ? `${outcome.duration_ms} ms` : '—'}</dd>
        {outcome.error_message && (
          <>
            <dt>Error</dt>
            <dd className="error-text">{outcome.error_message}</dd>
          </>
        )}
      </dl>
      <pre className="response-box" tabIndex={0} aria-label="Test response body">
        {outcome.response_body || '(empty body)'}
      </pre>
    </div>
  );
}
