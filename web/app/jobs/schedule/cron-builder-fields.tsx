import { useId, useState } from 'react';
import { DEFAULT_BUILDER, FREQUENCIES, HOUR_INTERVALS, MINUTE_INTERVAL_RANGE, builderToCron, cronToBuilder, type BuilderState, type Frequency } from './cron-builder';

const FREQUENCY_LABELS: Record<Frequency, string> = {
  minutes: 'Every N minutes',
  hourly: 'Hourly',
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const pad = (n: number) => String(n).padStart(2, '0');

/** The builder fields for each frequency (minutes, hourly, daily, weekly, monthly); edits become cron text at once. */
export function CronBuilder({ value, onChange, timeZone = 'UTC' }: { value: string; onChange(cron: string): void; timeZone?: string }) {
  const ids = useId();
  // What the fields show when the text is beyond the builder: the last builder state.
  const [last, setLast] = useState<BuilderState>(() => cronToBuilder(value) ?? DEFAULT_BUILDER);
  const parsed = cronToBuilder(value, last);
  const state = parsed ?? last;

  const update = (patch: Partial<BuilderState>) => {
    const next = { ...state, ...patch };
    setLast(next);
    onChange(builderToCron(next));
  };

  const number = (label: string, key: keyof BuilderState, options: number[], format: (n: number) => string = String) => (
    <div className="field">
      <label htmlFor={`${ids}-${key}`}>{label}</label>
      <select id={`${ids}-${key}`} value={state[key] as number} onChange={(e) => update({ [key]: Number(e.target.value) })}>
        {options.map((n) => (
          <option key={n} value={n}>
            {format(n)}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <div className="builder">
      {!parsed && <p className="field-hint">This expression is beyond the builder; choosing here replaces it.</p>}
      <div className="builder-grid">
        <div className="field">
          <label htmlFor={`${ids}-frequency`}>Frequency</label>
          <select id={`${ids}-frequency`} value={parsed ? state.frequency : ''} onChange={(e) => update({ frequency: e.target.value as Frequency })}>
            {!parsed && <option value="">Custom</option>}
            {FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {FREQUENCY_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
        {state.frequency === 'minutes' && number('Every (minutes)', 'everyMinutes', range(MINUTE_INTERVAL_RANGE.min, MINUTE_INTERVAL_RANGE.max))}
        {state.frequency === 'hourly' && number('Every (hours)', 'everyHours', [...HOUR_INTERVALS])}
        {state.frequency === 'hourly' && number('At minute', 'minute', range(0, 59), pad)}
        {state.frequency === 'weekly' && number('Day of week', 'weekday', range(0, 6), (d) => WEEKDAYS[d])}
        {state.frequency === 'monthly' && number('Day of month', 'dayOfMonth', range(1, 31))}
        {['daily', 'weekly', 'monthly'].includes(state.frequency) && number(`At hour (${timeZone})`, 'hour', range(0, 23), (h) => `${pad(h)}:00`)}
      </div>
    </div>
  );
}
