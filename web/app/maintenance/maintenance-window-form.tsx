import type { Job } from '@cronbeam/shared/jobs/job-types';
import { MAINTENANCE_LIMITS, type MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import { useId, useState, type FormEvent } from 'react';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { maintenanceWindowsApi, type MaintenanceWindowInput } from '../api/maintenance-windows-api';
import { notify } from '../ui/toasts';

const FIELDS = ['name', 'job_id', 'tag', 'starts_at', 'ends_at', 'cron_expression', 'duration_minutes', 'time_zone', 'form'] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<Field, string>>;

/** A datetime-local value (the browser's clocks) as an instant; null when empty or unreadable. */
function localToIso(value: string): string | null {
  if (!value) return null;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * Creates a maintenance window: which jobs (all, one, or those with a tag),
 * when (once, between two times on this browser's clocks, or every time a
 * cron expression fires, for some minutes, in a time zone), and whether runs
 * are paused as well as alerts muted.
 */
export function MaintenanceWindowForm({ jobs, onSaved, onCancel }: { jobs: Job[]; onSaved(window: MaintenanceWindow): void; onCancel(): void }) {
  const ids = useId();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'all' | 'job' | 'tag'>('all');
  const [jobId, setJobId] = useState('');
  const [tag, setTag] = useState('');
  const [kind, setKind] = useState<'once' | 'recurring'>('once');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [cron, setCron] = useState('');
  const [duration, setDuration] = useState('60');
  const [timeZone, setTimeZone] = useState(browserZone);
  const [pauseRuns, setPauseRuns] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const once = kind === 'once';
    const input: MaintenanceWindowInput = {
      name: name.trim(),
      job_id: scope === 'job' ? jobId || null : null,
      tag: scope === 'tag' ? tag.trim() || null : null,
      starts_at: once ? localToIso(startsAt) : null,
      ends_at: once ? localToIso(endsAt) : null,
      cron_expression: once ? null : cron.trim() || null,
      duration_minutes: once ? null : duration.trim() === '' ? null : Number(duration),
      time_zone: timeZone.trim() || 'UTC',
      pause_runs: pauseRuns,
    };
    setBusy(true);
    setErrors({});
    try {
      const saved = await maintenanceWindowsApi.create(input);
      notify.success(`Maintenance window '${saved.name}' created`);
      onSaved(saved);
    } catch (error) {
      if (error instanceof ApiRequestError && error.fieldIssues.length) {
        const found: FieldErrors = {};
        for (const issue of error.fieldIssues) {
          const field = FIELDS.find((f) => f === issue.loc[1]) ?? 'form';
          found[field] ??= issue.msg;
        }
        setErrors(found);
      } else setErrors({ form: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (field: Field) =>
    errors[field] ? (
      <span className="field-error" role="alert">
        {errors[field]}
      </span>
    ) : null;

  return (
    <form className="panel panel-padded form" onSubmit={submit} noValidate aria-label="New maintenance window">
      <h2>New maintenance window</h2>
      <div className="field">
        <label htmlFor={`${ids}-name`}>Name</label>
        <input id={`${ids}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={MAINTENANCE_LIMITS.nameMaxLength} aria-invalid={Boolean(errors.name)} />
        {fieldError('name')}
      </div>
      <div className="field">
        <label htmlFor={`${ids}-scope`}>Covers</label>
        <select id={`${ids}-scope`} value={scope} onChange={(e) => setScope(e.target.value as 'all' | 'job' | 'tag')}>
          <option value="all">Every job</option>
          <option value="job">One job</option>
          <option value="tag">Jobs with a tag</option>
        </select>
      </div>
      {scope === 'job' && (
        <div className="field">
          <label htmlFor={`${ids}-job`}>Job</label>
          <select id={`${ids}-job`} value={jobId} onChange={(e) => setJobId(e.target.value)} aria-invalid={Boolean(errors.job_id)}>
            <option value="">Choose a job</option>
            {jobs.map((job) => (
              <option key={job.job_id} value={job.job_id}>
                {job.name}
              </option>
            ))}
          </select>
          {fieldError('job_id')}
        </div>
      )}
      {scope === 'tag' && (
        <div className="field">
          <label htmlFor={`${ids}-tag`}>Tag</label>
          <input id={`${ids}-tag`} value={tag} onChange={(e) => setTag(e.target.value)} placeholder="e.g. billing" aria-invalid={Boolean(errors.tag)} />
          {fieldError('tag')}
        </div>
      )}
      <fieldset className="field">
        <legend className="field-label">When</legend>
        <label className="checkbox-row">
          <input type="radio" name={`${ids}-kind`} checked={kind === 'once'} onChange={() => setKind('once')} />
          Once
        </label>
        <label className="checkbox-row">
          <input type="radio" name={`${ids}-kind`} checked={kind === 'recurring'} onChange={() => setKind('recurring')} />
          Recurring
        </label>
      </fieldset>
      {kind === 'once' ? (
        <>
          <div className="field">
            <label htmlFor={`${ids}-starts`}>Starts</label>
            <input id={`${ids}-starts`} type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} aria-invalid={Boolean(errors.starts_at)} />
            {fieldError('starts_at')}
          </div>
          <div className="field">
            <label htmlFor={`${ids}-ends`}>Ends</label>
            <input id={`${ids}-ends`} type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} aria-invalid={Boolean(errors.ends_at)} />
            {fieldError('ends_at')}
          </div>
        </>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${ids}-cron`}>Starts at (cron expression)</label>
            <input id={`${ids}-cron`} value={cron} onChange={(e) => setCron(e.target.value)} placeholder="0 2 * * SUN" aria-invalid={Boolean(errors.cron_expression)} />
            {fieldError('cron_expression')}
          </div>
          <div className="field">
            <label htmlFor={`${ids}-duration`}>Lasts (minutes)</label>
            <input
              id={`${ids}-duration`}
              type="number"
              min={1}
              max={MAINTENANCE_LIMITS.maxDurationMinutes}
              value={duration}
              onChange={(e) => setDuration(e.target.value)}
              aria-invalid={Boolean(errors.duration_minutes)}
            />
            {fieldError('duration_minutes')}
          </div>
          <div className="field">
            <label htmlFor={`${ids}-zone`}>Time zone</label>
            <input id={`${ids}-zone`} value={timeZone} onChange={(e) => setTimeZone(e.target.value)} aria-invalid={Boolean(errors.time_zone)} />
            {fieldError('time_zone')}
          </div>
        </>
      )}
      <label className="checkbox-row">
        <input type="checkbox" checked={pauseRuns} onChange={(e) => setPauseRuns(e.target.checked)} />
        Also pause runs (runs due inside the window are skipped, not sent)
      </label>
      {fieldError('form')}
      <div className="button-row">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy || !name.trim()}>
          {busy ? 'Saving...' : 'Create Window'}
        </button>
      </div>
    </form>
  );
}
