/**
 * The schedule builder: a few common shapes of cron
 * expression as form fields, and the conversion both ways so the builder, the
 * presets and the expression text always show the same schedule.
 */
export const FREQUENCIES = ['minutes', 'hourly', 'daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** Hourly repeats the builder offers. */
export const HOUR_INTERVALS = [1, 2, 4, 6, 8, 10, 12] as const;
export const MINUTE_INTERVAL_RANGE = { min: 1, max: 30 } as const;

export interface BuilderState {
  frequency: Frequency;
  /** minutes: every N minutes, 1-30. */
  everyMinutes: number;
  /** hourly: every N hours, one of HOUR_INTERVALS. */
  everyHours: number;
  /** hourly: at this minute, 0-59. */
  minute: number;
  /** daily, weekly, monthly: at this hour (minute 0), 0-23. */
  hour: number;
  /** weekly: 0-6, Sunday = 0. */
  weekday: number;
  /** monthly: 1-31. */
  dayOfMonth: number;
}

/** The builder's starting point: every 15 minutes, the app's default schedule. */
export const DEFAULT_BUILDER: BuilderState = {
  frequency: 'minutes',
  everyMinutes: 15,
  everyHours: 1,
  minute: 0,
  hour: 0,
  weekday: 0,
  dayOfMonth: 1,
};

export const DEFAULT_CRON = '*/15 * * * *';

/** The cron expression a builder state stands for. */
export function builderToCron(state: BuilderState): string {
  switch (state.frequency) {
    case 'minutes':
      return state.everyMinutes === 1 ? '* * * * *' : `*/${state.everyMinutes} * * * *`;
    case 'hourly':
      return `${state.minute} ${state.everyHours === 1 ? '*' : `*/${state.everyHours}`} * * *`;
    case 'daily':
      return `0 ${state.hour} * * *`;
    case 'weekly':
      return `0 ${state.hour} * * ${state.weekday}`;
    case 'monthly':
      return `0 ${state.hour} ${state.dayOfMonth} * *`;
  }
}

const int = (text: string) => (/^\d+$/.test(text) ? Number(text) : NaN);
const within = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;
const step = (text: string) => (text === '*' ? 1 : text.startsWith('*/') ? int(text.slice(2)) : NaN);

/**
 * The builder state for an expression the builder can show, or null when the
 * expression is beyond it (the Expression tab still edits it). `base` keeps the
 * fields the expression does not mention (e.g. the weekday while on daily).
 */
export function cronToBuilder(expression: string, base: BuilderState = DEFAULT_BUILDER): BuilderState | null {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) return null;
  const [minute, hour, dom, month, dow] = parts;
  if (month !== '*') return null;
  if (hour === '*' && dom === '*' && dow === '*') {
    const every = step(minute);
    if (within(every, MINUTE_INTERVAL_RANGE.min, MINUTE_INTERVAL_RANGE.max)) return { ...base, frequency: 'minutes', everyMinutes: every };
    if (within(int(minute), 0, 59)) return { ...base, frequency: 'hourly', everyHours: 1, minute: int(minute) };
    return null;
  }
  if (dom === '*' && dow === '*' && (hour === '*' || hour.startsWith('*/'))) {
    const every = step(hour);
    if (within(int(minute), 0, 59) && (HOUR_INTERVALS as readonly number[]).includes(every)) {
      return { ...base, frequency: 'hourly', everyHours: every, minute: int(minute) };
    }
    return null;
  }
  if (minute !== '0' || !within(int(hour), 0, 23)) return null;
  const at = int(hour);
  if (dom === '*' && dow === '*') return { ...base, frequency: 'daily', hour: at };
  if (dom === '*' && within(int(dow), 0, 6)) return { ...base, frequency: 'weekly', hour: at, weekday: int(dow) };
  if (dow === '*' && within(int(dom), 1, 31)) return { ...base, frequency: 'monthly', hour: at, dayOfMonth: int(dom) };
  return null;
}
