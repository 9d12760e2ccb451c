import { z } from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../cron/time-zone';
import { JOB_LIMITS } from './job-limits';
import { jobDefinitionSchema } from './job-rules';
import type { Job, JobDefinition } from './job-types';

/** What GET …/jobs/export answers and POST …/jobs/import takes back (format "json"). */
export interface JobExport {
  format: typeof JOB_EXPORT_FORMAT;
  version: 1;
  exported_at: string;
  jobs: Array<Required<Omit<JobDefinition, 'response_rules'>> & Pick<Job, 'response_rules'>>;
}

export const JOB_EXPORT_FORMAT = 'cronbeam-jobs';

/** Import limits: under the server's 100 KiB request body limit, so an oversized file gets its field's message rather than a bare 413. */
export const IMPORT_LIMITS = { maxBytes: 90 * 1024, maxJobs: 500 } as const;

export const IMPORT_MESSAGES = {
  format: "format must be 'json' or 'crontab'",
  content: `content must be text of at most ${IMPORT_LIMITS.maxBytes / 1024} KiB`,
  dryRun: 'dry_run must be true or false',
  notJson: 'The file is not valid JSON',
  notExport: "The JSON is not a Cronbeam export: expected an object with a 'jobs' list (or a list of jobs)",
  tooMany: `At most ${IMPORT_LIMITS.maxJobs} jobs can be imported at once`,
  noUrl: 'No http(s) URL in the command: only commands that call a URL can become jobs',
  fields: 'Expected 5 schedule fields followed by a command',
  reboot: '@reboot has no schedule',
  unknownMacro: (macro: string) => `Unknown schedule shortcut ${macro}`,
  environment: 'Environment setting, not a job',
  zone: (zone: string) => `CRON_TZ names an unknown time zone: ${zone}`,
  limit: (max: number) => `The plan's job limit of ${max} is reached`,
  duplicateName: 'A job with this name already exists',
} as const;

/** POST …/jobs/import: the file's text and its format; dry_run answers the preview without creating anything. */
export const jobImportRequestSchema = z.strictObject(
  {
    format: z.enum(['json', 'crontab'], { error: IMPORT_MESSAGES.format }),
    content: z.string({ error: IMPORT_MESSAGES.content }).refine((text) => new TextEncoder().encode(text).length <= IMPORT_LIMITS.maxBytes, IMPORT_MESSAGES.content),
    dry_run: z.boolean({ error: IMPORT_MESSAGES.dryRun }).default(false),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
);
export type JobImportRequest = z.infer<typeof jobImportRequestSchema>;

/** POST …/jobs/{id}/clone: an optional name for the copy. */
export const jobCloneRequestSchema = z
  .strictObject(
    { name: jobDefinitionSchema.shape.name.optional() },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
  )
  .default({});

/** One job found in an import file, before the job rules and the account's limits are applied. */
export interface ImportCandidate {
  /** 1-based line of a crontab, or position in a JSON list. */
  source: number;
  /** The definition as read (may still be invalid), or null when the line could not become one. */
  definition: Record<string, unknown> | null;
  /** Why the line cannot become a job (set when definition is null). */
  reason?: string;
}

/** What the preview (and the import) answers for each candidate. */
export interface JobImportItem {
  source: number;
  name: string | null;
  action: 'create' | 'refuse';
  reason: string | null;
  definition: JobDefinition | null;
  /** The created job's id (an import that was not a dry run). */
  job_id: string | null;
}

export interface JobImportResult {
  dry_run: boolean;
  created: number;
  refused: number;
  items: JobImportItem[];
}

/** The export of a user's jobs: each one's full definition, oldest first. */
export function exportJobs(jobs: Job[], now = new Date()): JobExport {
  return {
    format: JOB_EXPORT_FORMAT,
    version: 1,
    exported_at: now.toISOString(),
    jobs: jobs.map((j) => ({
      name: j.name,
      url: j.url,
      method: j.method,
      headers: j.headers,
      body: j.body,
      cron_expression: j.cron_expression,
      time_zone: j.time_zone,
      every_seconds: j.every_seconds,
      run_at: j.run_at,
      starts_at: j.starts_at,
      ends_at: j.ends_at,
      jitter_seconds: j.jitter_seconds,
      overlap: j.overlap,
      catch_up: j.catch_up,
      catch_up_window_seconds: j.catch_up_window_seconds,
      response_rules: j.response_rules,
      timeout_seconds: j.timeout_seconds,
      auto_pause_after: j.auto_pause_after,
      alert_after_failures: j.alert_after_failures,
      certificate_alert_days: j.certificate_alert_days,
      delivery: j.delivery,
      tags: j.tags,
      retry: j.retry,
      identity_token: j.identity_token,
      callback_url: j.callback_url,
      notify_on_failure: j.notify_on_failure,
    })),
  };
}

/** Candidates of an export file (or a bare list of definitions). Throws Error with a readable message when the file is not one. */
export function candidatesFromJson(content: string): ImportCandidate[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new Error(IMPORT_MESSAGES.notJson);
  }
  const list = Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' && Array.isArray((parsed as { jobs?: unknown }).jobs) ? (parsed as { jobs: unknown[] }).jobs : null;
  if (!list) throw new Error(IMPORT_MESSAGES.notExport);
  return list.map((entry, index) =>
    entry && typeof entry === 'object' && !Array.isArray(entry)
      ? { source: index + 1, definition: { ...(entry as Record<string, unknown>) } }
      : { source: index + 1, definition: null, reason: IMPORT_MESSAGES.notExport },
  );
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const URL_IN_COMMAND = /https?:\/\/[^\s'"<>|;`]+/i;
const QUOTED = String.raw`(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+))`;
const HEADER_OPTION = new RegExp(String.raw`(?:^|\s)(?:-H|--header)\s+${QUOTED}`, 'g');
const DATA_OPTION = new RegExp(String.raw`(?:^|\s)(?:-d|--data|--data-raw|--data-binary|--post-data)[\s=]+${QUOTED}`);
const METHOD_OPTION = /(?:^|\s)(?:-X\s*|--request[\s=]+|--method=)([A-Za-z]+)/;

const unquote = (m: RegExpMatchArray | RegExpExecArray) => m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]) ?? '';

/** A job name from the URL: host and path as letters, digits and hyphens. */
function nameFromUrl(url: string): string {
  let base = url;
  try {
    const parsed = new URL(url);
    base = `${parsed.hostname}${parsed.pathname}`;
  } catch {
    // The job rules report the URL; the name only needs to be a name.
  }
  const slug = base
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|(?<!-)-+$/g, '')
    .slice(0, JOB_LIMITS.nameMaxLength - 4)
    .replace(/(?<!-)-+$/, '');
  return slug || 'imported-job';
}

/**
 * Candidates of a crontab: each schedule line whose command calls an http(s)
 * URL (curl or wget options for method, headers and body are read) becomes a
 * job named after its URL; `CRON_TZ=` sets the zone of the lines below it;
 * comments and blank lines are skipped; everything else is refused with its reason.
 */
export function candidatesFromCrontab(content: string): ImportCandidate[] {
  const candidates: ImportCandidate[] = [];
  let timeZone = DEFAULT_TIME_ZONE;
  content.split(/\r?\n/).forEach((raw, index) => {
    const source = index + 1;
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const env = /^([A-Za-z_]\w*)\s*=(.*)$/.exec(line);
    if (env) {
      const value = env[2]!.trimStart().replace(/^(['"])(.*)\1$/, '$2');
      if (env[1] === 'CRON_TZ' || env[1] === 'TZ') {
        if (isTimeZone(value)) timeZone = value;
        else candidates.push({ source, definition: null, reason: IMPORT_MESSAGES.zone(value) });
      } else candidates.push({ source, definition: null, reason: IMPORT_MESSAGES.environment });
      return;
    }
    let schedule: string;
    let command: string;
    if (line.startsWith('@')) {
      const [macro, ...rest] = line.split(/\s+/);
      if (macro === '@reboot') return void candidates.push({ source, definition: null, reason: IMPORT_MESSAGES.reboot });
      const expanded = MACROS[macro!.toLowerCase()];
      if (!expanded) return void candidates.push({ source, definition: null, reason: IMPORT_MESSAGES.unknownMacro(macro!) });
      schedule = expanded;
      command = rest.join(' ');
    } else {
      const fields = line.split(/\s+/);
      if (fields.length < 6) return void candidates.push({ source, definition: null, reason: IMPORT_MESSAGES.fields });
      schedule = fields.slice(0, 5).join(' ');
      command = line.replace(/^(\S+\s+){5}/, '');
    }
    const url = URL_IN_COMMAND.exec(command)?.[0];
    if (!url) return void candidates.push({ source, definition: null, reason: IMPORT_MESSAGES.noUrl });
    const headers: Record<string, string> = {};
    for (const match of command.matchAll(HEADER_OPTION)) {
      const header = unquote(match);
      const colon = header.indexOf(':');
      if (colon > 0) headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    }
    const data = DATA_OPTION.exec(command);
    const method = METHOD_OPTION.exec(command)?.[1]?.toUpperCase() ?? (data ? 'POST' : 'GET');
    candidates.push({
      source,
      definition: { name: nameFromUrl(url), url, method, headers, body: data ? unquote(data) : '', cron_expression: schedule, time_zone: timeZone },
    });
  });
  return candidates;
}

/** `name`, or `name-2`, `name-3`… : the first not in `taken` (compared case-insensitively, as the database does). */
export function uniqueName(name: string, taken: Set<string>): string {
  const free = (candidate: string) => !taken.has(candidate.toLowerCase());
  if (free(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, JOB_LIMITS.nameMaxLength - suffix.length)}${suffix}`;
    if (free(candidate)) return candidate;
  }
}
