import { urlWarning } from '@cronbeam/shared/jobs/job-rules';
import { HTTP_METHODS, type HttpMethod, type Job, type JobDefinition } from '@cronbeam/shared/jobs/job-types';
import { useState, type FormEvent } from 'react';
import { ApiRequestError, errorMessage, type JobLimitDetail } from '../../api/api-error';
import { ERROR_TEXT } from '../../api/error-messages';
import { jobsApi, type CreatedJob, type RunOutcome } from '../../api/jobs-api';
import { RunOutcomeView } from '../run-outcome';
import { ALERT_OPTION, ALERT_OPTION_HINT } from '../../alerts/alert-option';
import { SchedulePicker } from '../schedule/schedule-picker';
import { useDashboard } from '../../dashboard/dashboard-store';
import { CallbackField, RetryFields, SigningFields, timeoutHint } from './delivery-fields';
import { HeadersEditor } from './headers-editor';
import { ScheduleFields } from './schedule-fields';
import {
  EMPTY_FORM,
  bodyWarning,
  definitionFromValues,
  errorsFromIssues,
  validateJobForm,
  valuesFromJob,
  type JobFormErrors,
  type JobFormField,
  type JobFormValues,
} from './job-form-model';
import { QuotaModal } from './quota-modal';

interface JobFormProps {
  /** The job being edited; none to create a new one. */
  job?: Job;
  onSaved(result: CreatedJob | Job): void;
  onCancel?(): void;
}

/** Ask the server whether it is there (jobs list, retried 4 times) before sending a job. */
async function probeServer(): Promise<boolean> {
  try {
    await jobsApi.list(true);
    return true;
  } catch (error) {
    return error instanceof ApiRequestError && !error.isNetworkError && error.status < 500;
  }
}

/** The fields a test request sends: the request itself, not yet its name or schedule. */
const TEST_FIELDS: JobFormField[] = ['url', 'method', 'headers', 'body', 'response_rules', 'timeout_seconds'];

type TestState = { kind: 'sending' } | { kind: 'done'; outcome: RunOutcome } | { kind: 'refused'; message: string } | null;

function save(job: Job | undefined, definition: JobDefinition) {
  return job ? jobsApi.update(job.job_id, definition) : jobsApi.create(definition);
}

/** The job form, for creating and for editing: rules on blur and on submit, server messages on the fields. */
export function JobForm({ job, onSaved, onCancel }: JobFormProps) {
  const [values, setValues] = useState<JobFormValues>(() => (job ? valuesFromJob(job) : EMPTY_FORM));
  const [errors, setErrors] = useState<JobFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [limit, setLimit] = useState<JobLimitDetail | null>(null);
  const [test, setTest] = useState<TestState>(null);
  const warning = urlWarning(values.url);
  /** The server's warning for the URL last left, while the field still holds it. */
  const [targetWarning, setTargetWarning] = useState<{ url: string; text: string } | null>(null);
  const refusedWhenRun = targetWarning?.url === values.url.trim() ? targetWarning.text : null;
  const bodyNotice = bodyWarning(values.body);
  const plan = useDashboard((s) => s.stats?.plan);
  /** Retries, signing and the callback open by themselves when set, or when one of them has a message. */
  const policiesSet = Boolean(values.callback_url || values.identity_token || errors.retry || errors.identity_token || errors.callback_url);

  const set = <K extends keyof JobFormValues>(key: K, value: JobFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  /** Leaving a field checks that field only. */
  const check = (field: JobFormField) => setErrors((current) => ({ ...current, [field]: validateJobForm(values)[field] }));
  /** Leaving the URL asks whether this server would send the job's runs at all, so a URL that only fails is said before saving. */
  const checkTarget = async () => {
    const url = values.url.trim();
    if (validateJobForm(values).url) return;
    try {
      const { warning: refused } = await jobsApi.checkTarget(url);
      setTargetWarning(refused ? { url, text: refused } : null);
    } catch (error) {
      // A URL the server would not even save is a field error now; an unreachable server is the form's to say on submit.
      if (error instanceof ApiRequestError && error.fieldIssues.length > 0) setErrors((current) => ({ ...current, ...errorsFromIssues(error.fieldIssues) }));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const found = validateJobForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFormError(ERROR_TEXT.fixErrors);
      return;
    }
    setBusy(true);
    try {
      if (!(await probeServer())) {
        setFormError(ERROR_TEXT.serverUnreachable);
        return;
      }
      onSaved(await save(job, definitionFromValues(values)));
    } catch (error) {
      if (error instanceof ApiRequestError && error.jobLimit) setLimit(error.jobLimit);
      else if (error instanceof ApiRequestError && error.fieldIssues.length > 0) {
        setErrors(errorsFromIssues(error.fieldIssues));
        setFormError(ERROR_TEXT.fixErrors);
      } else setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  /** Sends the form's request once, as it stands (saved or not), and shows what came back. */
  const testRequest = async () => {
    const found = validateJobForm(values);
    const blocking = Object.fromEntries(TEST_FIELDS.filter((field) => found[field]).map((field) => [field, found[field]]));
    if (Object.keys(blocking).length > 0) {
      setErrors((current) => ({ ...current, ...blocking }));
      setTest({ kind: 'refused', message: 'Fix the request fields above before testing it' });
      return;
    }
    const { url, method, headers, body, response_rules, timeout_seconds } = definitionFromValues(values);
    setTest({ kind: 'sending' });
    try {
      setTest({ kind: 'done', outcome: await jobsApi.test({ url, method, headers, body, response_rules, timeout_seconds }) });
    } catch (error) {
      if (error instanceof ApiRequestError && error.fieldIssues.length > 0) setErrors((current) => ({ ...current, ...errorsFromIssues(error.fieldIssues) }));
      setTest({ kind: 'refused', message: errorMessage(error) });
    }
  };

  const reset = () => {
    setValues(EMPTY_FORM);
    setErrors({});
    setFormError(null);
    setTest(null);
  };

  const fieldProps = (field: 'name' | 'url') => ({
    id: `job-${field}`,
    value: values[field],
    onChange: (e: { target: { value: string } }) => {
      const next = { ...values, [field]: e.target.value };
      setValues(next);
      // A message already shown follows the typing, so it goes away once fixed.
      if (errors[field]) setErrors((current) => ({ ...current, [field]: validateJobForm(next)[field] }));
    },
    onBlur: () => {
      check(field);
      if (field === 'url') void checkTarget();
    },
    'aria-invalid': Boolean(errors[field]),
    'aria-describedby': errors[field] ? `job-${field}-error` : undefined,
  });

  return (
    <form className="form job-form" onSubmit={submit} noValidate aria-label={job ? 'Edit job' : 'Create job'}>
      {formError && (
        <div className="alert alert-error" role="alert">
          {formError}
        </div>
      )}
      {job && (
        <div className="field">
          <label htmlFor="job-id">Job ID</label>
          <input id="job-id" className="mono" value={job.job_id} readOnly />
        </div>
      )}
      <div className="form-grid">
        <div className="field">
          <label htmlFor="job-name">Job Name</label>
          <input {...fieldProps('name')} placeholder="nightly-report" autoComplete="off" />
          {errors.name && (
            <span id="job-name-error" className="field-error">
              {errors.name}
            </span>
          )}
        </div>
        <div className="field">
          <label htmlFor="job-method">HTTP Method</label>
          <select id="job-method" value={values.method} onChange={(e) => set('method', e.target.value as HttpMethod)}>
            {HTTP_METHODS.map((method) => (
              <option key={method}>{method}</option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor="job-url">URL</label>
        <input {...fieldProps('url')} type="url" placeholder="https://api.example.com/tasks/run" inputMode="url" />
        {errors.url ? (
          <span id="job-url-error" className="field-error">
            {errors.url}
          </span>
        ) : (
          <>
            {warning && <span className="field-warning">{warning}</span>}
            {refusedWhenRun && (
              <span className="field-warning" role="status">
                {refusedWhenRun}
              </span>
            )}
          </>
        )}
      </div>
      <HeadersEditor rows={values.headers} onChange={(rows) => set('headers', rows)} error={errors.headers} />
      <div className="field">
        <label htmlFor="job-body">Request Body (optional, JSON)</label>
        <textarea
          id="job-body"
          value={values.body}
          onChange={(e) => set('body', e.target.value)}
          onBlur={() => check('body')}
          placeholder='{"report": "daily"}'
          spellCheck={false}
          aria-invalid={Boolean(errors.body)}
        />
        {errors.body ? (
          <span className="field-error">{errors.body}</span>
        ) : (
          bodyNotice && <span className="field-warning">{bodyNotice}</span>
        )}
      </div>
      <ScheduleFields
        values={values}
        set={set}
        errors={errors}
        check={check}
        cronPicker={
          <SchedulePicker
            value={values.cron_expression}
            onChange={(cron) => set('cron_expression', cron)}
            onBlur={() => check('cron_expression')}
            error={errors.cron_expression}
            timeZone={values.time_zone}
            onTimeZoneChange={(zone) => set('time_zone', zone)}
            timeZoneError={errors.time_zone}
          />
        }
      />
      <details className="response-rules" open={Boolean(values.expected_status || values.body_contains || values.json_path || values.timeout_seconds || values.auto_pause_after)}>
        <summary>Response rules and limits</summary>
        <p className="field-hint">By default a run succeeds on any 2xx status. Every rule given here must hold; a failed run names the rule it broke.</p>
        <div className="form-grid">
          {(
            [
              ['expected_status', 'Expected status codes', '200-299, 304'],
              ['body_contains', 'Body contains', 'OK'],
              ['json_path', 'JSON path', '$.status'],
              ['json_equals', 'JSON value at the path', '"up"'],
              ['timeout_seconds', 'Timeout (seconds)', '30'],
              ['auto_pause_after', 'Pause after failed runs in a row', 'never'],
            ] as const
          ).map(([key, label, placeholder]) => (
            <div className="field" key={key}>
              <label htmlFor={`job-${key}`}>{label}</label>
              <input
                id={`job-${key}`}
                value={values[key]}
                placeholder={placeholder}
                spellCheck={false}
                onChange={(e) => set(key, e.target.value)}
                aria-describedby={key === 'timeout_seconds' ? 'job-timeout-hint' : undefined}
              />
              {key === 'timeout_seconds' && (
                <span id="job-timeout-hint" className="field-hint">
                  {timeoutHint(plan)}
                </span>
              )}
            </div>
          ))}
          <div className="field">
            <label htmlFor="job-delivery">If the server stops mid-request</label>
            <select id="job-delivery" value={values.delivery} onChange={(e) => set('delivery', e.target.value as JobFormValues['delivery'])} aria-describedby="job-delivery-hint">
              <option value="at_least_once">Send again (at least once)</option>
              <option value="at_most_once">Never send twice (at most once)</option>
            </select>
            <span id="job-delivery-hint" className="field-hint">
              A run that may already have reached the URL when a server crashed is sent again with the same execution id and marked a possible duplicate, or recorded as &quot;outcome unknown&quot;.
            </span>
          </div>
        </div>
        {(['response_rules', 'timeout_seconds', 'auto_pause_after'] as const).map(
          (field) =>
            errors[field] && (
              <span key={field} className="field-error" role="alert">
                {errors[field]}
              </span>
            ),
        )}
      </details>
      <details className="delivery-policies" open={policiesSet}>
        <summary>Retries, signed requests and run callback</summary>
        <RetryFields values={values} set={set} errors={errors} check={check} />
        <SigningFields values={values} set={set} errors={errors} job={job} />
        <CallbackField values={values} set={set} errors={errors} check={check} job={job} />
      </details>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={values.notify_on_failure}
          onChange={(e) => set('notify_on_failure', e.target.checked)}
          aria-describedby="job-alert-hint"
        />
        {ALERT_OPTION}
      </label>
      <span id="job-alert-hint" className="field-hint">
        {ALERT_OPTION_HINT}
      </span>
      {values.notify_on_failure && (
        <div className="field alert-threshold">
          <label htmlFor="job-alert_after_failures">Alert after failed runs in a row</label>
          <input
            id="job-alert_after_failures"
            type="number"
            min={1}
            inputMode="numeric"
            value={values.alert_after_failures}
            onChange={(e) => set('alert_after_failures', e.target.value)}
            onBlur={() => check('alert_after_failures')}
            aria-invalid={Boolean(errors.alert_after_failures)}
            aria-describedby="job-alert-threshold-hint"
          />
          <span id="job-alert-threshold-hint" className="field-hint">
            1 alerts at the first failed run; 3 waits for three in a row. The recovery alert follows the success that ends them.
          </span>
          {errors.alert_after_failures && (
            <span className="field-error" role="alert">
              {errors.alert_after_failures}
            </span>
          )}
        </div>
      )}
      {values.url.trim().toLowerCase().startsWith('https:') && (
        <div className="field">
          <label htmlFor="job-certificate_alert_days">Certificate alert (days before expiry)</label>
          <input
            id="job-certificate_alert_days"
            type="number"
            min={1}
            inputMode="numeric"
            value={values.certificate_alert_days}
            onChange={(e) => set('certificate_alert_days', e.target.value)}
            onBlur={() => check('certificate_alert_days')}
            aria-invalid={Boolean(errors.certificate_alert_days)}
            aria-describedby="job-certificate-hint"
          />
          <span id="job-certificate-hint" className="field-hint">
            You are told this many days before the URL's TLS certificate expires, and when it has. Empty: no certificate alerts.
          </span>
          {errors.certificate_alert_days && (
            <span className="field-error" role="alert">
              {errors.certificate_alert_days}
            </span>
          )}
        </div>
      )}
      <div className="field">
        <label htmlFor="job-tags">Tags</label>
        <input
          id="job-tags"
          type="text"
          value={values.tags}
          placeholder="prod, billing"
          onChange={(e) => set('tags', e.target.value)}
          onBlur={() => check('tags')}
          aria-invalid={Boolean(errors.tags)}
          aria-describedby="job-tags-hint"
        />
        <span id="job-tags-hint" className="field-hint">
          Separated by commas. Filter the list by a tag, pause, resume or delete every job with it, or mute its alerts in a maintenance window.
        </span>
        {errors.tags && (
          <span className="field-error" role="alert">
            {errors.tags}
          </span>
        )}
      </div>
      <div className="button-row form-actions">
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
        {!job && (
          <button type="button" className="button button-secondary" onClick={reset} disabled={busy}>
            Reset
          </button>
        )}
        <button type="button" className="button button-secondary" onClick={testRequest} disabled={test?.kind === 'sending'}>
          {test?.kind === 'sending' ? 'Testing...' : 'Test request'}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? (job ? 'Saving...' : 'Creating...') : job ? 'Save Changes' : 'Create Job'}
        </button>
      </div>
      <div className="test-result" aria-live="polite">
        {test && <h3 className="detail-heading">Test request</h3>}
        {test?.kind === 'sending' && <p className="muted">Sending the request to {values.url.trim()}...</p>}
        {test?.kind === 'refused' && <div className="alert alert-error">{test.message}</div>}
        {test?.kind === 'done' && <RunOutcomeView outcome={test.outcome} />}
      </div>
      {limit && <QuotaModal limit={limit} onClose={() => setLimit(null)} />}
    </form>
  );
}
