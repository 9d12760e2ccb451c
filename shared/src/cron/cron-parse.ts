import { CRON_FIELDS, SECOND_FIELD, type CronFieldSpec } from './cron-fields';
import { CRON_MESSAGES } from './cron-messages';

/** One comma-separated part of a field: `*`, `5`, `1-5`, `*\/15`, `10-50/10` or `5/15`. */
export interface CronItem {
  start: number;
  end: number;
  step: number;
  /** Written with `*`: matters for the day-of-month/day-of-week rule. */
  wildcard: boolean;
}

export interface CronField {
  spec: CronFieldSpec;
  items: CronItem[];
  /** Every value the field matches, ascending. */
  values: number[];
  /** The field begins with `*` (standard cron then ANDs the two day fields). */
  starred: boolean;
}

export interface ParsedCron {
  /** The leading seconds field of a six-field expression; null for the standard five (second 0). */
  second: CronField | null;
  minute: CronField;
  hour: CronField;
  dayOfMonth: CronField;
  month: CronField;
  dayOfWeek: CronField;
  /** The same schedule with names resolved and whitespace collapsed: what the engine runs. */
  normalized: string;
}

export type CronParseResult = { ok: true; cron: ParsedCron } | { ok: false; error: string };

class CronSyntaxError extends Error {}

/** What an expression may hold beyond the standard five fields. */
export interface CronParseOptions {
  /** A leading sixth field, the second (jobs can fire to the second; monitors and crontab imports cannot). */
  seconds?: boolean;
}

/**
 * Validates and parses a 5-field cron expression (or, with `seconds`, a
 * 6-field one whose first field is the second) with each field's range and
 * the error messages of CRON_MESSAGES. Only standard syntax is accepted
 * (numbers, names, `*`, lists, ranges, steps); engine extensions such as `L`,
 * `W` or `#` are not, so a schedule means the same thing in every cron the user knows.
 */
export function parseCron(expression: unknown, options: CronParseOptions = {}): CronParseResult {
  if (typeof expression !== 'string' || expression.trim() === '') return { ok: false, error: CRON_MESSAGES.required };
  const parts = expression.trim().split(/\s+/);
  const withSeconds = options.seconds === true && parts.length === 6;
  if (parts.length !== 5 && !withSeconds) return { ok: false, error: options.seconds ? CRON_MESSAGES.fieldCountWithSeconds : CRON_MESSAGES.fieldCount };
  try {
    const second = withSeconds ? parseField(parts[0], SECOND_FIELD) : null;
    const fields = parts.slice(withSeconds ? 1 : 0).map((part, i) => parseField(part, CRON_FIELDS[i]));
    const [minute, hour, dayOfMonth, month, dayOfWeek] = fields;
    if (!dayFitsSomeMonth(dayOfMonth, month, dayOfWeek)) return { ok: false, error: CRON_MESSAGES.neverRuns };
    return {
      ok: true,
      cron: { second, minute, hour, dayOfMonth, month, dayOfWeek, normalized: [...(second ? [second] : []), ...fields].map(formatField).join(' ') },
    };
  } catch (error) {
    if (error instanceof CronSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The validation message for an expression, or null when it is valid. */
export function cronError(expression: unknown, options: CronParseOptions = {}): string | null {
  const result = parseCron(expression, options);
  return result.ok ? null : result.error;
}

/** Longest length of each month (February counts its leap-year 29th). */
const MONTH_LENGTHS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** False for schedules such as `0 0 30 2 *` that can never fire. */
function dayFitsSomeMonth(dayOfMonth: CronField, month: CronField, dayOfWeek: CronField): boolean {
  // With a restricted day of week and an unstarred day of month, the days are ORed: weekdays always come round.
  if (!dayOfWeek.starred && !dayOfMonth.starred) return true;
  const firstDay = dayOfMonth.values[0];
  return month.values.some((m) => firstDay <= MONTH_LENGTHS[m - 1]);
}

function parseField(source: string, spec: CronFieldSpec): CronField {
  const items = source.split(',').map((token) => parseItem(token, spec));
  const values = new Set<number>();
  for (const item of items) for (let v = item.start; v <= item.end; v += item.step) values.add(v);
  return { spec, items, values: [...values].sort((a, b) => a - b), starred: source.startsWith('*') };
}

function parseItem(token: string, spec: CronFieldSpec): CronItem {
  const [rangePart, stepPart, ...extra] = token.split('/');
  if (extra.length > 0 || rangePart === '') throw new CronSyntaxError(CRON_MESSAGES.invalidValue(spec, token));
  let step = 1;
  if (stepPart !== undefined) {
    step = /^\d+$/.test(stepPart) ? Number(stepPart) : NaN;
    if (!(step >= 1 && step <= spec.max - spec.min + 1)) throw new CronSyntaxError(CRON_MESSAGES.invalidStep(spec));
  }
  if (rangePart === '*') return { start: spec.min, end: spec.max, step, wildcard: true };
  const bounds = rangePart.split('-');
  if (bounds.length > 2) throw new CronSyntaxError(CRON_MESSAGES.invalidValue(spec, token));
  const start = parseValue(bounds[0], spec, token);
  // `5/15` is the common shorthand for `5-max/15`; a bare value without a step is just that value.
  const end = bounds.length === 2 ? parseValue(bounds[1], spec, token) : stepPart !== undefined ? spec.max : start;
  if (start > end) throw new CronSyntaxError(CRON_MESSAGES.reversedRange(spec, token));
  return { start, end, step, wildcard: false };
}

function parseValue(text: string, spec: CronFieldSpec, token: string): number {
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value < spec.min || value > spec.max) throw new CronSyntaxError(CRON_MESSAGES.outOfRange(spec));
    return value;
  }
  const index = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (index < 0) throw new CronSyntaxError(CRON_MESSAGES.invalidValue(spec, token));
  return index + spec.min;
}

function formatField(field: CronField): string {
  return field.items.map(formatItem).join(',');
}

function formatItem(item: CronItem): string {
  const step = item.step > 1 ? `/${item.step}` : '';
  if (item.wildcard) return `*${step}`;
  if (item.start === item.end && item.step === 1) return String(item.start);
  return `${item.start}-${item.end}${step}`;
}
