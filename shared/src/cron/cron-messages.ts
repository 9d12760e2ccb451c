import type { CronFieldSpec } from './cron-fields';

/** The texts users see for a bad cron expression (job form and both APIs). */
export const CRON_MESSAGES = {
  required: 'Cron expression is required',
  fieldCount: 'Cron expression must have 5 fields',
  fieldCountWithSeconds: 'Cron expression must have 5 fields, or 6 with seconds first',
  neverRuns: 'Cron expression never runs: no selected month has that day',
  outOfRange: (f: CronFieldSpec) => `${f.label} must be between ${f.min} and ${f.max}`,
  invalidValue: (f: CronFieldSpec, token: string) =>
    `${f.label} has an invalid value '${token}'` + (f.names ? ` (use ${f.min}-${f.max} or ${f.names[0]}-${f.names[f.names.length - 1]})` : ` (use ${f.min}-${f.max})`),
  reversedRange: (f: CronFieldSpec, token: string) => `${f.label} range '${token}' must go from low to high`,
  invalidStep: (f: CronFieldSpec) => `${f.label} step must be a whole number from 1 to ${f.max - f.min + 1}`,
} as const;
