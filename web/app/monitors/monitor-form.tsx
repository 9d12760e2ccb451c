import { DEFAULT_TIME_ZONE } from '@cronbeam/shared/cron';
import type { AlertChannel } from '@cronbeam/shared/notifications/alert-channels';
import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import { tagsFromText, tagsToText } from '@cronbeam/shared/tags/tags';
import { useId, useState, type FormEvent } from 'react';
import { ApiRequestError, errorMessage, type JobLimitDetail } from '../api/api-error';
import { monitorsApi, type MonitorInput } from '../api/monitors-api';
import { QuotaModal } from '../jobs/form/quota-modal';
import { SchedulePicker } from '../jobs/schedule/schedule-picker';
import { notify } from '../ui/toasts';
import { UNITS, splitSeconds, type Unit } from './monitor-format';

const FIELDS = ['name', 'period_seconds', 'cron_expression', 'time_zone', 'grace_seconds', 'alert_after_misses', 'channel_ids', 'tags'] as const;
type FieldErrors = Partial<Record<(typeof FIELDS)[number] | 'form', string>>;

interface MonitorFormProps {
  /** The monitor to edit; none creates one. */
  monitor?: Monitor;
  channels: AlertChannel[];
  onSaved(monitor: Monitor): void;
  onCancel(): void;
}

/**
 * Creates or edits a heartbeat monitor: its name, the expected schedule (a
 * period, or a cron expression in a time zone, with the job form's picker),
 * the grace time and the alert channels it uses.
 */
export function MonitorForm({ monitor, channels, onSaved, onCancel }: MonitorFormProps) {
  const ids = useId();
  const period = splitSeconds(monitor?.period_seconds ?? 3600);
  const grace = splitSeconds(monitor?.grace_seconds ?? 300);
  const [name, setName] = useState(monitor?.name ?? '');
  const [kind, setKind] = useState<'period' | 'cron'>(monitor?.cron_expression ? 'cron' : 'period');
  const [periodValue, setPeriodValue] = useState(String(period.value));
  const [periodUnit, setPeriodUnit] = useState<Unit>(period.unit);
  const [cron, setCron] = useState(monitor?.cron_expression ?? '0 * * * *');
  const [timeZone, setTimeZone] = useState(monitor?.time_zone ?? DEFAULT_TIME_ZONE);
  const [graceValue, setGraceValue] = useState(String(grace.value));
  const [graceUnit, setGraceUnit] = useState<Unit>(grace.unit);
  const [alertAfter, setAlertAfter] = useState(String(monitor?.alert_after_misses ?? 1));
  const [chosen, setChosen] = useState<string[] | null>(monitor?.channel_ids ?? null);
  const [tags, setTags] = useState(tagsToText(monitor?.tags ?? []));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [limit, setLimit] = useState<JobLimitDetail | null>(null);
  const [busy, setBusy] = useState(false);

  const seconds = (value: string, unit: Unit) => (value.trim() === '' ? Number.NaN : Number(value) * UNITS[unit]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input: MonitorInput = {
      name: name.trim(),
      period_seconds: kind === 'period' ? seconds(periodValue, periodUnit) : null,
      cron_expression: kind === 'cron' ? cron : null,
      ...(kind === 'cron' ? { time_zone: timeZone } : {}),
      grace_seconds: seconds(graceValue, graceUnit),
      alert_after_misses: alertAfter.trim() === '' ? 1 : Number(alertAfter),
      channel_ids: chosen,
      tags: tagsFromText(tags),
    };
    setBusy(true);
    setErrors({});
    try {
      const saved = monitor ? await monitorsApi.update(monitor.monitor_id, input) : await monitorsApi.create(input);
      notify.success(`Monitor '${saved.name}' ${monitor ? 'updated' : 'created'}`);
      onSaved(saved);
    } catch (error) {
      if (error instanceof ApiRequestError && error.jobLimit) setLimit(error.jobLimit);
      else if (error instanceof ApiRequestError && Array.isArray(error.detail)) {
        const found: FieldErrors = {};
        for (const issue of error.detail as Array<{ loc: Array<string | number>; msg: string }>) {
          const field = FIELDS.find((f) => f === issue.loc[1]) ?? 'form';
          found[field] ??= issue.msg;
        }
        setErrors(found);
      } else setErrors({ form: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const toggleChannel = (id: string, on: boolean) => {
    const current = chosen ?? [];
    setChosen(on ? [...current, id] : current.filter((c) => c !== id));
  };

  const fieldError = (field: keyof FieldErrors) =>
    errors[field] ? (
      <span className="field-error" role="alert">
        {errors[field]}
      </span>
    ) : null;

  return (
    <form className="panel panel-padded form monitor-form" onSubmit={submit} noValidate aria-label={monitor ? `Edit monitor ${monitor.name}` : 'New monitor'}>
      <h2>{monitor ? `Edit monitor '${monitor.name}'` : 'New monitor'}</h2>
      <div className="field">
        <label htmlFor={`${ids}-name`}>Monitor name</label>
        <input id={`${ids}-name`} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(errors.name)} />
        {fieldError('name')}
      </div>
      <fieldset className="field monitor-kind">
        <legend className="field-label">Expected schedule</legend>
        <label className="checkbox-row">
          <input type="radio" name={`${ids}-kind`} checked={kind === 'period'} onChange={() => setKind('period')} />
          Every period (a ping at least this often)
        </label>
        <label className="checkbox-row">
          <input type="radio" name={`${ids}-kind`} checked={kind === 'cron'} onChange={() => setKind('cron')} />
          On a cron schedule (a ping at each of its times)
        </label>
      </fieldset>
      {kind === 'period' ? (
        <div className="field">
          <label htmlFor={`${ids}-period`}>Period</label>
          <div className="monitor-amount">
            <input id={`${ids}-period`} type="number" min={1} value={periodValue} onChange={(e) => setPeriodValue(e.target.value)} aria-invalid={Boolean(errors.period_seconds)} />
            <select aria-label="Period unit" value={periodUnit} onChange={(e) => setPeriodUnit(e.target.value as Unit)}>
              {Object.keys(UNITS).map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </select>
          </div>
          {fieldError('period_seconds')}
        </div>
      ) : (
        <SchedulePicker value={cron} onChange={setCron} onBlur={() => undefined} error={errors.cron_expression} timeZone={timeZone} onTimeZoneChange={setTimeZone} timeZoneError={errors.time_zone} />
      )}
      <div className="field">
        <label htmlFor={`${ids}-grace`}>Grace time</label>
        <div className="monitor-amount">
          <input id={`${ids}-grace`} type="number" min={0} value={graceValue} onChange={(e) => setGraceValue(e.target.value)} aria-invalid={Boolean(errors.grace_seconds)} />
          <select aria-label="Grace unit" value={graceUnit} onChange={(e) => setGraceUnit(e.target.value as Unit)}>
            {Object.keys(UNITS).map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </div>
        <span className="field-hint">How late a ping may be before its deadline counts as missed.</span>
        {fieldError('grace_seconds')}
      </div>
      <div className="field">
        <label htmlFor={`${ids}-alert-after`}>Alert after missed pings in a row</label>
        <input
          id={`${ids}-alert-after`}
          type="number"
          min={1}
          inputMode="numeric"
          value={alertAfter}
          onChange={(e) => setAlertAfter(e.target.value)}
          aria-invalid={Boolean(errors.alert_after_misses)}
          aria-describedby={`${ids}-alert-after-hint`}
        />
        <span id={`${ids}-alert-after-hint`} className="field-hint">
          1 marks the monitor down and alerts at the first missed deadline; 3 waits for three in a row. A /fail ping alerts at once.
        </span>
        {fieldError('alert_after_misses')}
      </div>
      <div className="field">
        <label htmlFor={`${ids}-tags`}>Tags</label>
        <input id={`${ids}-tags`} type="text" value={tags} placeholder="prod, backups" onChange={(e) => setTags(e.target.value)} aria-invalid={Boolean(errors.tags)} />
        <span className="field-hint">Separated by commas: filter the list by a tag, or pause, resume or delete every monitor with it.</span>
        {fieldError('tags')}
      </div>
      <fieldset className="field">
        <legend className="field-label">Alert channels</legend>
        <span className="field-hint">Your account email is always alerted.</span>
        <label className="checkbox-row">
          <input type="checkbox" checked={chosen === null} onChange={(e) => setChosen(e.target.checked ? null : [])} />
          Channels that take every alert
        </label>
        {chosen !== null &&
          (channels.length === 0 ? (
            <span className="muted">No alert channels yet: add them under Alert Channels.</span>
          ) : (
            channels.map((channel) => (
              <label key={channel.channel_id} className="checkbox-row">
                <input type="checkbox" checked={chosen.includes(channel.channel_id)} onChange={(e) => toggleChannel(channel.channel_id, e.target.checked)} />
                {channel.name} <span className="muted">({channel.kind}{channel.status === 'pending_verification' ? ', pending verification: receives nothing yet' : ''})</span>
              </label>
            ))
          ))}
        {fieldError('channel_ids')}
      </fieldset>
      {fieldError('form')}
      <div className="button-row">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy || !name.trim()}>
          {busy ? 'Saving...' : monitor ? 'Save Monitor' : 'Create Monitor'}
        </button>
      </div>
      {limit && <QuotaModal limit={limit} onClose={() => setLimit(null)} />}
    </form>
  );
}
