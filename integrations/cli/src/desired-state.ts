import type { Job, JobDefinition, Monitor, MonitorDefinition } from '@cronbeam/sdk';
import { jobDefinitionSchema } from '@cronbeam/shared/jobs/job-rules';
import { monitorSchema } from '@cronbeam/shared/notifications/monitors';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { usageError } from './exit-codes';

/**
 * The fields the API's rules know, taken from those rules so a field added to
 * the API is compared and exported without a change here. For jobs this
 * includes the read-only ones (id, status, times), which the rules ignore.
 */
const JOB_FIELDS = Object.keys(jobDefinitionSchema.shape);
const MONITOR_FIELDS = Object.keys(monitorSchema.shape);

/** What the rules return for read-only fields is undefined: only the definition is left. */
const definitionOnly = (parsed: object) => Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));

/** What cronbeam.yaml declares: every definition complete (defaults filled in), as the API would store it. */
export interface DesiredState {
  jobs: JobDefinition[];
  monitors: MonitorDefinition[];
}

function pick<T extends object>(record: T, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, (record as Record<string, unknown>)[field]]));
}

/** Where a zod issue points, as `field.sub` (or the entry itself). */
const where = (path: PropertyKey[]) => (path.length ? path.map(String).join('.') : 'entry');

/**
 * A job definition with the server's own rules applied (the shared rules the
 * API validates with): trimmed, defaults filled in. Two definitions that the
 * API would store alike normalise alike, so comparing them tells whether an
 * update is needed.
 */
export function normaliseJob(input: unknown, label: string): JobDefinition {
  const parsed = jobDefinitionSchema.safeParse(input);
  if (!parsed.success) throw usageError(`${label}: ${parsed.error.issues.map((issue) => `${where(issue.path)}: ${issue.message}`).join('; ')}`);
  return definitionOnly(parsed.data) as JobDefinition;
}

export function normaliseMonitor(input: unknown, label: string): MonitorDefinition {
  const parsed = monitorSchema.safeParse(input);
  if (!parsed.success) throw usageError(`${label}: ${parsed.error.issues.map((issue) => `${where(issue.path)}: ${issue.message}`).join('; ')}`);
  return definitionOnly(parsed.data) as MonitorDefinition;
}

/** An existing job's definition, normalised as a desired one is. */
export const definitionOfJob = (job: Job): JobDefinition => normaliseJob(pick(job, JOB_FIELDS), `job ${job.name}`);
export const definitionOfMonitor = (monitor: Monitor): MonitorDefinition => normaliseMonitor(pick(monitor, MONITOR_FIELDS), `monitor ${monitor.name}`);

function entries(document: Record<string, unknown>, key: 'jobs' | 'monitors', file: string): unknown[] {
  const value = document[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw usageError(`${file}: '${key}' must be a list`);
  return value;
}

function checkUnique(names: string[], kind: string, file: string, fold: (name: string) => string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(fold(name))) throw usageError(`${file}: ${kind} '${name}' is declared twice (names identify ${kind}s)`);
    seen.add(fold(name));
  }
}

/** Reads cronbeam.yaml (YAML or JSON); every problem is a usage error naming the entry and field. */
export function parseDesiredState(text: string, file: string): DesiredState {
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw usageError(`${file}: not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
  // An empty file declares nothing: with --prune, it deletes everything.
  const document: unknown = parsed ?? {};
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw usageError(`${file}: expected a mapping with 'jobs' and 'monitors' lists`);
  const unknown = Object.keys(document).filter((key) => key !== 'jobs' && key !== 'monitors');
  if (unknown.length) throw usageError(`${file}: unknown top-level key ${unknown.map((key) => `'${key}'`).join(', ')} (expected 'jobs' and 'monitors')`);
  const record = document as Record<string, unknown>;
  const label = (kind: string, index: number, entry: unknown) => {
    const name = typeof entry === 'object' && entry !== null && 'name' in entry ? ` (${String((entry as { name: unknown }).name)})` : '';
    return `${file}: ${kind}[${index}]${name}`;
  };
  const jobs = entries(record, 'jobs', file).map((entry, index) => normaliseJob(entry, label('jobs', index, entry)));
  const monitors = entries(record, 'monitors', file).map((entry, index) => normaliseMonitor(entry, label('monitors', index, entry)));
  // Job names are unique per user without regard to case; monitor names are matched exactly.
  checkUnique(
    jobs.map((job) => job.name),
    'job',
    file,
    (name) => name.toLowerCase(),
  );
  checkUnique(
    monitors.map((monitor) => monitor.name),
    'monitor',
    file,
    (name) => name,
  );
  return { jobs, monitors };
}

/** Leaves out the fields a definition has at their defaults, so an exported file reads like a hand-written one. */
function withoutDefaults<T extends object>(definition: T, defaults: T, required: string[]): Partial<T> {
  const kept = Object.entries(definition).filter(([key, value]) => required.includes(key) || !sameValue(value, (defaults as Record<string, unknown>)[key]));
  return Object.fromEntries(kept) as Partial<T>;
}

/** The account's jobs and monitors as the content of a cronbeam.yaml that `apply` turns back into the same state. */
export function exportedState(jobs: Job[], monitors: Monitor[]): { jobs: Array<Partial<JobDefinition>>; monitors: Array<Partial<MonitorDefinition>> } {
  return {
    jobs: jobs.map((job) => {
      const required = { name: job.name, url: job.url, cron_expression: job.cron_expression };
      return withoutDefaults(definitionOfJob(job), normaliseJob(required, job.name), Object.keys(required));
    }),
    monitors: monitors.map((monitor) => {
      const required = monitor.cron_expression === null ? { name: monitor.name, period_seconds: monitor.period_seconds } : { name: monitor.name, cron_expression: monitor.cron_expression };
      return withoutDefaults(definitionOfMonitor(monitor), normaliseMonitor(required, monitor.name), Object.keys(required));
    }),
  };
}

export function toYamlText(value: unknown): string {
  return toYaml(value, { lineWidth: 0 });
}

/** Deep equality of JSON values, objects compared without regard to key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  return aKeys.length === bKeys.length && aKeys.every((key) => sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The fields whose values differ between two definitions. */
export function changedFields(current: object, desired: object): string[] {
  const keys = new Set([...Object.keys(current), ...Object.keys(desired)]);
  return [...keys].filter((key) => !sameValue((current as Record<string, unknown>)[key], (desired as Record<string, unknown>)[key]));
}
