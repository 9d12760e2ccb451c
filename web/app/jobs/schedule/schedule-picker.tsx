import { DEFAULT_TIME_ZONE, timeZoneNames } from '@cronbeam/shared/cron';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { CronBuilder } from './cron-builder-fields';
import { CRON_PRESETS, presetFor } from './cron-presets';
import { RunPreview } from './run-preview';

const TABS = ['Builder', 'Expression', 'Preset'] as const;
type Tab = (typeof TABS)[number];

interface SchedulePickerProps {
  value: string;
  onChange(cron: string): void;
  onBlur(): void;
  error?: string;
  /** The IANA zone the expression is read in; the picker shows no zone choice without `onTimeZoneChange`. */
  timeZone?: string;
  onTimeZoneChange?(timeZone: string): void;
  timeZoneError?: string;
}

/**
 * The schedule of a job in three views of one cron text: the builder, the raw
 * expression and the presets. Each view edits the text; each shows it.
 */
export function SchedulePicker({ value, onChange, onBlur, error, timeZone = DEFAULT_TIME_ZONE, onTimeZoneChange, timeZoneError }: SchedulePickerProps) {
  const zones = useMemo(() => timeZoneNames(), []);
  const [tab, setTab] = useState<Tab>('Builder');
  const ids = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const preset = presetFor(value);

  // Arrow keys move between tabs, as in every tab list.
  const onTabKey = (event: KeyboardEvent, index: number) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    const next = (index + delta + TABS.length) % TABS.length;
    setTab(TABS[next]);
    tabRefs.current[next]?.focus();
  };

  return (
    <fieldset className="schedule" onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && onBlur()}>
      <legend className="field-label">Schedule ({timeZone})</legend>
      <div className="tabs" role="tablist" aria-label="Schedule input">
        {TABS.map((name, index) => (
          <button
            key={name}
            ref={(node) => {
              tabRefs.current[index] = node;
            }}
            type="button"
            role="tab"
            id={`${ids}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${ids}-panel`}
            tabIndex={tab === name ? 0 : -1}
            className={tab === name ? 'tab active' : 'tab'}
            onClick={() => setTab(name)}
            onKeyDown={(event) => onTabKey(event, index)}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-tab-${tab}`} className="tab-panel">
        {tab === 'Builder' && <CronBuilder value={value} onChange={onChange} timeZone={timeZone} />}
        {tab === 'Expression' && (
          <div className="field">
            <label htmlFor={`${ids}-cron`}>Cron expression</label>
            <input
              id={`${ids}-cron`}
              className="mono"
              value={value}
              onChange={(e) => onChange(e.target.value)}
              aria-invalid={Boolean(error)}
              aria-describedby={`${ids}-cron-hint`}
              spellCheck={false}
            />
            <span id={`${ids}-cron-hint`} className="field-hint">
              minute (0-59) · hour (0-23) · day of month (1-31) · month (1-12) · day of week (0-6, Sunday = 0)
            </span>
          </div>
        )}
        {tab === 'Preset' && (
          <div className="field">
            <label htmlFor={`${ids}-preset`}>Schedule preset</label>
            <select id={`${ids}-preset`} value={preset?.id ?? ''} onChange={(e) => onChange(CRON_PRESETS.find((p) => p.id === e.target.value)!.cron)}>
              {!preset && <option value="">Custom schedule</option>}
              {CRON_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {onTimeZoneChange && (
        <div className="field">
          <label htmlFor={`${ids}-zone`}>Time zone</label>
          <select id={`${ids}-zone`} value={timeZone} onChange={(e) => onTimeZoneChange(e.target.value)} aria-invalid={Boolean(timeZoneError)}>
            {!zones.includes(timeZone) && <option value={timeZone}>{timeZone}</option>}
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
          {timeZoneError && <span className="field-error">{timeZoneError}</span>}
        </div>
      )}
      <div className="cron-line">
        <span className="muted">Cron:</span> <code data-testid="cron-text">{value || '—'}</code>
      </div>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      <RunPreview expression={value} timeZone={timeZone} />
    </fieldset>
  );
}
