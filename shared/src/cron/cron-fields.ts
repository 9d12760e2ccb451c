/**
 * The five fields of a standard cron expression, in order, with their allowed
 * ranges (minute 0-59, hour 0-23, day 1-31, month 1-12, day of week 0-6). Month and day-of-week also accept three-letter English names.
 * A job's expression may lead with a sixth field, the second (0-59).
 */
export interface CronFieldSpec {
  key: 'second' | 'minute' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek';
  /** How messages and descriptions name the field. */
  label: string;
  min: number;
  max: number;
  /** Accepted names, index + min = value (JAN = 1, SUN = 0). */
  names?: readonly string[];
}

export const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
export const WEEKDAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

/** The optional leading field of a six-field expression. */
export const SECOND_FIELD: CronFieldSpec = { key: 'second', label: 'Second', min: 0, max: 59 };

export const CRON_FIELDS: readonly CronFieldSpec[] = [
  { key: 'minute', label: 'Minute', min: 0, max: 59 },
  { key: 'hour', label: 'Hour', min: 0, max: 23 },
  { key: 'dayOfMonth', label: 'Day of month', min: 1, max: 31 },
  { key: 'month', label: 'Month', min: 1, max: 12, names: MONTH_NAMES },
  // Day of week is 0-6 with Sunday = 0; 7 is refused rather than silently aliased to Sunday.
  { key: 'dayOfWeek', label: 'Day of week', min: 0, max: 6, names: WEEKDAY_NAMES },
];
