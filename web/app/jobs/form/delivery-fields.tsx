import { RETRY_OUTCOMES, type Job, type RetryOutcome } from '@cronbeam/shared/jobs/job-types';
import { DEFAULT_TIMEOUT_SECONDS } from '@cronbeam/shared/jobs/plan-timeout';
import { RETRY_LIMITS } from '@cronbeam/shared/jobs/retry-policy';
import { SIGNING_LIMITS, type SigningSecretRotation } from '@cronbeam/shared/jobs/request-signing';
import type { CallbackDelivery } from '@cronbeam/shared/jobs/run-callbacks';
import { PLAN_LIMITS, isPlanId } from '@cronbeam/shared/plans';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error';
import { jobsApi } from '../../api/jobs-api';
import { CopyButton } from '../../ui/copy-button';
import { formatUtc } from '../../ui/format';
import type { JobFormErrors, JobFormField, JobFormValues } from './job-form-model';

interface FieldsProps {
  values: JobFormValues;
  set<K extends keyof JobFormValues>(key: K, value: JobFormValues[K]): void;
  errors: JobFormErrors;
  check(field: JobFormField): void;
}

const OUTCOME_LABELS: Record<RetryOutcome, string> = {
  timeout: 'Timeouts',
  network: 'Network errors',
  '5xx': '5xx answers',
  '429': '429 Too Many Requests',
};

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span id={id} className="field-error" role="alert">
      {message}
    </span>
  ) : null;
}

/** The plan's longest request, as the timeout field's hint says it (the server may set a lower ceiling, which its 422 names). */
export function timeoutHint(plan: string | undefined): string {
  const base = `Empty: ${DEFAULT_TIMEOUT_SECONDS} s.`;
  if (!plan || !isPlanId(plan)) return base;
  return `${base} Your ${plan} plan allows up to ${PLAN_LIMITS[plan].maxTimeoutSeconds} s.`;
}

/** How failed scheduled runs are tried again: how many times, how long between, and which failures. */
export function RetryFields({ values, set, errors, check }: FieldsProps) {
  const toggle = (outcome: RetryOutcome, on: boolean) => set('retry_on', on ? [...values.retry_on, outcome] : values.retry_on.filter((o) => o !== outcome));
  const numberField = (key: 'retry_attempts' | 'retry_initial_backoff_seconds' | 'retry_max_backoff_seconds', label: string, placeholder: string, max: number) => (
    <div className="field">
      <label htmlFor={`job-${key}`}>{label}</label>
      <input
        id={`job-${key}`}
        type="number"
        inputMode="numeric"
        min={key === 'retry_attempts' ? 0 : RETRY_LIMITS.minBackoffSeconds}
        max={max}
        value={values[key]}
        placeholder={placeholder}
        onChange={(e) => set(key, e.target.value)}
        onBlur={() => check('retry')}
        aria-invalid={Boolean(errors.retry)}
      />
    </div>
  );
  return (
    <fieldset className="field retry-fields" aria-describedby="job-retry-hint">
      <legend>Retries</legend>
      <div className="form-grid">
        {numberField('retry_attempts', 'Retries after a failed run', String(RETRY_LIMITS.defaultAttempts), RETRY_LIMITS.maxAttempts)}
        {numberField('retry_initial_backoff_seconds', 'First wait (seconds)', 'server default', RETRY_LIMITS.maxInitialBackoffSeconds)}
        {numberField('retry_max_backoff_seconds', 'Longest wait (seconds)', String(RETRY_LIMITS.defaultMaxBackoffSeconds), RETRY_LIMITS.maxBackoffSeconds)}
      </div>
      <div className="checkbox-group" role="group" aria-label="Failures that are retried">
        {RETRY_OUTCOMES.map((outcome) => (
          <label key={outcome} className="checkbox-row">
            <input type="checkbox" checked={values.retry_on.includes(outcome)} onChange={(e) => toggle(outcome, e.target.checked)} />
            {OUTCOME_LABELS[outcome]}
          </label>
        ))}
      </div>
      <div className="field">
        <label htmlFor="job-retry_on_status">Other statuses to retry (4xx)</label>
        <input
          id="job-retry_on_status"
          value={values.retry_on_status}
          placeholder="408, 409"
          spellCheck={false}
          onChange={(e) => set('retry_on_status', e.target.value)}
          onBlur={() => check('retry')}
          aria-invalid={Boolean(errors.retry)}
        />
      </div>
      <span id="job-retry-hint" className="field-hint">
        Each wait doubles the one before, up to the longest; a 429 or 5xx answer with Retry-After waits what the target asks, never longer. 0 retries: a failed run stays failed.
      </span>
      <FieldError id="job-retry-error" message={errors.retry} />
    </fieldset>
  );
}

const OVERLAPS: ReadonlyArray<[seconds: number, label: string]> = [
  [0, 'Stop at once'],
  [3_600, 'for 1 hour'],
  [SIGNING_LIMITS.defaultOverlapSeconds, 'for 1 day'],
  [SIGNING_LIMITS.maxOverlapSeconds, 'for 7 days'],
];

/**
 * Signed requests: the identity token toggle and its audience, and for a
 * saved job the rotation of its signing secret, whose new value is shown
 * this once.
 */
export function SigningFields({ values, set, errors, job }: Omit<FieldsProps, 'check'> & { job?: Job }) {
  return (
    <fieldset className="field signing-fields">
      <legend>Signed requests</legend>
      <p className="field-hint">
        Every request carries X-Cronbeam-Signature, an HMAC with the job&apos;s signing secret{job ? '' : ', shown once when the job is created'}.
      </p>
      <label className="checkbox-row">
        <input type="checkbox" checked={values.identity_token} onChange={(e) => set('identity_token', e.target.checked)} aria-describedby="job-identity-hint" />
        Send an identity token (Authorization: Bearer JWT signed by Cronbeam)
      </label>
      <span id="job-identity-hint" className="field-hint">
        The target verifies it with the keys at /.well-known/target-jwks.json. The job may then not set an Authorization header of its own.
      </span>
      {values.identity_token && (
        <div className="field">
          <label htmlFor="job-identity_token_audience">Token audience</label>
          <input
            id="job-identity_token_audience"
            value={values.identity_token_audience}
            placeholder="the job's URL"
            spellCheck={false}
            onChange={(e) => set('identity_token_audience', e.target.value)}
            aria-invalid={Boolean(errors.identity_token)}
          />
        </div>
      )}
      <FieldError id="job-identity_token-error" message={errors.identity_token} />
      {job && <SecretRotation jobId={job.job_id} />}
    </fieldset>
  );
}

type RotationState = { kind: 'idle' } | { kind: 'sending' } | { kind: 'done'; rotation: SigningSecretRotation } | { kind: 'failed'; message: string };

/** Replaces a saved job's signing secret; the new one is shown once, the old one signs on for the overlap chosen. */
function SecretRotation({ jobId }: { jobId: string }) {
  const [overlap, setOverlap] = useState<number>(SIGNING_LIMITS.defaultOverlapSeconds);
  const [state, setState] = useState<RotationState>({ kind: 'idle' });
  const rotate = async () => {
    setState({ kind: 'sending' });
    try {
      setState({ kind: 'done', rotation: await jobsApi.rotateSigningSecret(jobId, overlap) });
    } catch (error) {
      setState({ kind: 'failed', message: errorMessage(error) });
    }
  };
  return (
    <div className="secret-rotation">
      <div className="form-grid">
        <div className="field">
          <label htmlFor="job-secret-overlap">The current secret keeps signing</label>
          <select id="job-secret-overlap" value={overlap} onChange={(e) => setOverlap(Number(e.target.value))}>
            {OVERLAPS.map(([seconds, label]) => (
              <option key={seconds} value={seconds}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="button-row">
        <button type="button" className="button button-secondary button-small" onClick={rotate} disabled={state.kind === 'sending'}>
          {state.kind === 'sending' ? 'Rotating...' : 'Rotate signing secret'}
        </button>
      </div>
      <div aria-live="polite">
        {state.kind === 'done' && (
          <p className="field-hint" data-testid="new-signing-secret">
            New signing secret (shown once; it signs from now on): <code>{state.rotation.signing_secret}</code> <CopyButton value={state.rotation.signing_secret} label="Copy signing secret" />
            {state.rotation.previous_valid_until ? ` The previous one signs too until ${formatUtc(state.rotation.previous_valid_until)}.` : ' The previous one no longer signs.'}
          </p>
        )}
        {state.kind === 'failed' && <div className="alert alert-error">{state.message}</div>}
      </div>
    </div>
  );
}

/** Where each completed run's outcome is POSTed; for a saved job, its latest delivery attempts on request. */
export function CallbackField({ values, set, errors, check, job }: FieldsProps & { job?: Job }) {
  return (
    <div className="field">
      <label htmlFor="job-callback_url">Run callback (optional)</label>
      <input
        id="job-callback_url"
        type="url"
        inputMode="url"
        value={values.callback_url}
        placeholder="https://api.example.com/cronbeam/done"
        spellCheck={false}
        onChange={(e) => set('callback_url', e.target.value)}
        onBlur={() => check('callback_url')}
        aria-invalid={Boolean(errors.callback_url)}
        aria-describedby="job-callback-hint"
      />
      <span id="job-callback-hint" className="field-hint">
        Each run&apos;s outcome (status, response code, duration, attempt, the start of the response) is POSTed here once the run is decided, after its retries, signed like alert webhooks with the job&apos;s signing secret.
      </span>
      <FieldError id="job-callback_url-error" message={errors.callback_url} />
      {job?.callback_url && <CallbackDeliveries jobId={job.job_id} />}
    </div>
  );
}

type DeliveriesState = { kind: 'idle' } | { kind: 'loading' } | { kind: 'done'; deliveries: CallbackDelivery[] } | { kind: 'failed'; message: string };

/** The latest attempts to deliver a saved job's callbacks, newest first, as the alert channels show theirs. */
function CallbackDeliveries({ jobId }: { jobId: string }) {
  const [state, setState] = useState<DeliveriesState>({ kind: 'idle' });
  const load = async () => {
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'done', deliveries: (await jobsApi.callbackDeliveries(jobId)).deliveries });
    } catch (error) {
      setState({ kind: 'failed', message: errorMessage(error) });
    }
  };
  return (
    <div className="callback-deliveries">
      <div className="button-row">
        <button type="button" className="button button-secondary button-small" onClick={load} disabled={state.kind === 'loading'}>
          {state.kind === 'done' ? 'Refresh deliveries' : 'Show recent deliveries'}
        </button>
      </div>
      <div aria-live="polite">
        {state.kind === 'failed' && <div className="alert alert-error">{state.message}</div>}
        {state.kind === 'done' &&
          (state.deliveries.length === 0 ? (
            <p className="field-hint">No callback sent yet: the first goes out when a run completes.</p>
          ) : (
            <table className="data-table" aria-label="Callback deliveries">
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Run</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {state.deliveries.map((d) => (
                  <tr key={d.delivery_id}>
                    <td>{formatUtc(d.created_at)}</td>
                    <td className="mono">{d.run_id.slice(0, 8)}</td>
                    <td>{d.attempt}</td>
                    <td>{d.status === 'delivered' ? `Delivered (HTTP ${d.response_code})` : `Failed: ${d.error ?? `HTTP ${d.response_code}`}`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
      </div>
    </div>
  );
}
