import { CATCH_UP_POLICIES, OVERLAP_POLICIES, SCHEDULE_LIMITS, type CatchUpPolicy, type OverlapPolicy } from '@cronbeam/shared/jobs/schedule';
import type { SchedulePreview } from '@cronbeam/shared/jobs/job-types';
import { useState, type ReactNode } from 'react';
import { ApiRequestError, errorMessage } from '../../api/api-error';
import { jobsApi } from '../../api/jobs-api';
import { formatUtc } from '../../ui/format';
import { definitionFromValues, errorsFromIssues, type JobFormErrors, type JobFormField, type JobFormValues, type ScheduleExtras, type ScheduleKind } from './job-form-model';

interface ScheduleFieldsProps {
  values: JobFormValues;
  set<K extends keyof JobFormValues>(key: K, value: JobFormValues[K]): void;
  errors: JobFormErrors;
  check(field: JobFormField): void;
  /** The cron picker, shown for the cron form. */
  cronPicker: ReactNode;
}

const KINDS: ReadonlyArray<[kind: ScheduleKind, label: string]> = [
  ['cron', 'On a cron schedule'],
  ['every', 'Every so many seconds'],
  ['once', 'Once, at a set time'],
];

const OVERLAP_LABELS: Record<OverlapPolicy, string> = {
  allow: 'Start it anyway',
  skip: 'Skip it (recorded as skipped)',
};

const CATCH_UP_LABELS: Record<CatchUpPolicy, string> = {
  latest: 'Run the latest missed run once',
  none: 'Run none of them',
  all_within: 'Run every one missed within a window',
};

/** An instant as a datetime-local input shows it: its UTC clock time to the minute. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 16);
}

/** A datetime-local value read as UTC; empty: none. */
export function fromLocalInput(value: string): string | null {
  return value ? `${value}:00Z` : null;
}

/** A whole number as typed; empty: null (what is not a number reaches the shared rules as typed, which name it). */
function numberOrNull(value: string): number | null {
  return value.trim() === '' ? null : Number(value);
}

function FieldError({ field, errors }: { field: JobFormField; errors: JobFormErrors }) {
  return errors[field] ? (
    <span id={`job-${field}-error`} className="field-error" role="alert">
      {errors[field]}
    </span>
  ) : null;
}

/**
 * The schedule's form (a cron expression, an interval or one run), its
 * window (starts_at, ends_at), its jitter, and what happens to a run due
 * while the last is still running or missed during an outage or a pause.
 * Times are entered in UTC.
 */
export function ScheduleFields({ values, set, errors, check, cronPicker }: ScheduleFieldsProps) {
  const schedule = values.schedule;
  const update = (change: Partial<ScheduleExtras>) => set('schedule', { ...schedule, ...change });
  const kind = values.schedule_kind;
  const instant = (field: 'run_at' | 'starts_at' | 'ends_at', label: string) => (
    <div className="field">
      <label htmlFor={`job-${field}`}>{label}</label>
      <input
        id={`job-${field}`}
        type="datetime-local"
        value={toLocalInput(schedule[field])}
        onChange={(e) => update({ [field]: fromLocalInput(e.target.value) })}
        onBlur={() => check(field)}
        aria-invalid={Boolean(errors[field])}
      />
      <FieldError field={field} errors={errors} />
    </div>
  );
  return (
    <div className="schedule-fields">
      <div className="field">
        <label htmlFor="job-schedule-kind">Runs</label>
        <select id="job-schedule-kind" value={kind} onChange={(e) => set('schedule_kind', e.target.value as ScheduleKind)}>
          {KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {kind === 'cron' && cronPicker}
      {kind === 'every' && (
        <div className="field">
          <label htmlFor="job-every_seconds">Every (seconds)</label>
          <input
            id="job-every_seconds"
            type="number"
            inputMode="numeric"
            min={1}
            max={SCHEDULE_LIMITS.maxEverySeconds}
            value={schedule.every_seconds ?? ''}
            placeholder="300"
            onChange={(e) => update({ every_seconds: numberOrNull(e.target.value) })}
            onBlur={() => check('every_seconds')}
            aria-invalid={Boolean(errors.every_seconds)}
            aria-describedby="job-every-hint"
          />
          <span id="job-every-hint" className="field-hint">
            Counted from the start time, or from when the job is saved. Your plan sets the shortest interval.
          </span>
          <FieldError field="every_seconds" errors={errors} />
        </div>
      )}
      {kind === 'once' && instant('run_at', 'Run at (UTC)')}
      <details className="schedule-policies" open={Boolean(schedule.starts_at || schedule.ends_at || schedule.jitter_seconds || schedule.overlap !== 'allow' || schedule.catch_up !== 'latest')}>
        <summary>Start, end, jitter, overlap and catch-up</summary>
        {kind !== 'once' && (
          <div className="form-grid">
            {instant('starts_at', 'Starts at (UTC, optional)')}
            {instant('ends_at', 'Ends at (UTC, optional)')}
          </div>
        )}
        <div className="form-grid">
          <div className="field">
            <label htmlFor="job-jitter_seconds">Jitter (seconds)</label>
            <input
              id="job-jitter_seconds"
              type="number"
              inputMode="numeric"
              min={0}
              max={SCHEDULE_LIMITS.maxJitterSeconds}
              value={schedule.jitter_seconds}
              onChange={(e) => update({ jitter_seconds: numberOrNull(e.target.value) ?? 0 })}
              onBlur={() => check('jitter_seconds')}
              aria-invalid={Boolean(errors.jitter_seconds)}
              aria-describedby="job-jitter-hint"
            />
            <span id="job-jitter-hint" className="field-hint">
              Every run is shifted by the same offset within this window, so jobs due at the same minute do not all hit at once.
            </span>
            <FieldError field="jitter_seconds" errors={errors} />
          </div>
          <div className="field">
            <label htmlFor="job-overlap">When a run is due while the last one is still running</label>
            <select id="job-overlap" value={schedule.overlap} onChange={(e) => update({ overlap: e.target.value as OverlapPolicy })}>
              {OVERLAP_POLICIES.map((policy) => (
                <option key={policy} value={policy}>
                  {OVERLAP_LABELS[policy]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="job-catch_up">Runs missed during an outage or a pause</label>
            <select
              id="job-catch_up"
              value={schedule.catch_up}
              onChange={(e) => {
                const catchUp = e.target.value as CatchUpPolicy;
                update({ catch_up: catchUp, catch_up_window_seconds: catchUp === 'all_within' ? (schedule.catch_up_window_seconds ?? 3_600) : null });
              }}
            >
              {CATCH_UP_POLICIES.map((policy) => (
                <option key={policy} value={policy}>
                  {CATCH_UP_LABELS[policy]}
                </option>
              ))}
            </select>
          </div>
          {schedule.catch_up === 'all_within' && (
            <div className="field">
              <label htmlFor="job-catch_up_window_seconds">Catch-up window (seconds)</label>
              <input
                id="job-catch_up_window_seconds"
                type="number"
                inputMode="numeric"
                min={1}
                max={SCHEDULE_LIMITS.maxCatchUpWindowSeconds}
                value={schedule.catch_up_window_seconds ?? ''}
                onChange={(e) => update({ catch_up_window_seconds: numberOrNull(e.target.value) })}
                onBlur={() => check('catch_up_window_seconds')}
                aria-invalid={Boolean(errors.catch_up_window_seconds)}
              />
              <FieldError field="catch_up_window_seconds" errors={errors} />
            </div>
          )}
        </div>
      </details>
      {kind !== 'cron' || schedule.jitter_seconds ? <SchedulePreviewPanel values={values} /> : null}
    </div>
  );
}

type PreviewState = { kind: 'idle' } | { kind: 'loading' } | { kind: 'done'; preview: SchedulePreview } | { kind: 'failed'; message: string };

/**
 * The server's preview of an interval, a one-off run or a jittered schedule
 * (the cron picker previews plain cron itself): the next runs with the
 * job's jitter offset, and the executions in 30 days against the plan's quota.
 */
function SchedulePreviewPanel({ values }: { values: JobFormValues }) {
  const [state, setState] = useState<PreviewState>({ kind: 'idle' });
  const preview = async () => {
    const d = definitionFromValues(values);
    setState({ kind: 'loading' });
    try {
      const answer = await jobsApi.schedulePreview({
        ...(d.name ? { name: d.name } : {}),
        cron_expression: d.cron_expression,
        time_zone: d.time_zone,
        every_seconds: d.every_seconds,
        run_at: d.run_at,
        starts_at: d.starts_at,
        ends_at: d.ends_at,
        jitter_seconds: d.jitter_seconds,
      });
      setState({ kind: 'done', preview: answer });
    } catch (error) {
      const fields = error instanceof ApiRequestError ? Object.values(errorsFromIssues(error.fieldIssues)) : [];
      setState({ kind: 'failed', message: fields[0] ?? errorMessage(error) });
    }
  };
  return (
    <div className="schedule-preview">
      <button type="button" className="button button-secondary button-small" onClick={preview} disabled={state.kind === 'loading'}>
        Preview next runs
      </button>
      <div aria-live="polite">
        {state.kind === 'failed' && <div className="alert alert-error">{state.message}</div>}
        {state.kind === 'done' && (
          <div data-testid="schedule-preview">
            {state.preview.next_runs.length === 0 ? (
              <p className="field-hint">No run to come.</p>
            ) : (
              <ol className="run-list">
                {state.preview.next_runs.map((run) => (
                  <li key={run}>{formatUtc(run)}</li>
                ))}
              </ol>
            )}
            <p className="field-hint">
              {state.preview.executions_per_30_days} executions in the next 30 days (your {state.preview.plan} plan allows {state.preview.execution_quota} a month)
              {state.preview.jitter_offset_seconds ? `; jitter places this job ${state.preview.jitter_offset_seconds} s after each instant` : ''}.
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
