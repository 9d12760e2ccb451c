import { jobDefinitionSchema } from '@shared/jobs/job-rules';
import type { HttpMethod, Job, JobDefinition } from '@shared/jobs/job-types';
import { DEFAULT_CRON } from '../schedule/cron-builder';

export interface HeaderRow {
  id: number;
  name: string;
  value: string;
}

/** What the job form holds while it is being edited. */
export interface JobFormValues {
  name: string;
  method: HttpMethod;
  url: string;
  headers: HeaderRow[];
  body: string;
  cron_expression: string;
  time_zone: string;
  notify_on_failure: boolean;
}

/** The fields whose messages the form shows next to them. */
export type JobFormField = 'name' | 'url' | 'method' | 'headers' | 'body' | 'cron_expression' | 'time_zone' | 'notify_on_failure';
export type JobFormErrors = Partial<Record<JobFormField, string>>;

let nextRowId = 1;
export const headerRow = (name = '', value = ''): HeaderRow => ({ id: nextRowId++, name, value });

export const EMPTY_FORM: JobFormValues = {
  name: '',
  method: 'GET',
  url: '',
  headers: [],
  body: '',
  cron_expression: DEFAULT_CRON,
  time_zone: 'UTC',
  notify_on_failure: false,
};

/** The form's values for editing an existing job. */
export function valuesFromJob(job: Job): JobFormValues {
  return {
    name: job.name,
    method: job.method,
    url: job.url,
    headers: Object.entries(job.headers ?? {}).map(([name, value]) => headerRow(name, value)),
    body: job.body ?? '',
    cron_expression: job.cron_expression,
    time_zone: job.time_zone ?? 'UTC',
    notify_on_failure: job.notify_on_failure,
  };
}

/**
 * The definition sent to the API: texts trimmed, header rows with an empty
 * name or value dropped (a half-filled row is not a header). React escapes text when it renders it, so
 * the values are sent as the user typed them rather than HTML-escaped.
 */
export function definitionFromValues(values: JobFormValues): JobDefinition {
  const headers: Record<string, string> = {};
  for (const row of values.headers) {
    const name = row.name.trim();
    const value = row.value.trim();
    if (name && value) headers[name] = value;
  }
  return {
    name: values.name.trim(),
    method: values.method,
    url: values.url.trim(),
    headers,
    body: values.body,
    cron_expression: values.cron_expression.trim().split(/\s+/).join(' '),
    time_zone: values.time_zone,
    notify_on_failure: values.notify_on_failure,
  };
}

/** Every field's first message under the shared job rules (the API checks the same rules). */
export function validateJobForm(values: JobFormValues): JobFormErrors {
  const result = jobDefinitionSchema.safeParse(definitionFromValues(values));
  if (result.success) return {};
  const errors: JobFormErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as JobFormField;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** The 422 issues of the API mapped onto the form's fields. */
export function errorsFromIssues(issues: { loc: (string | number)[]; msg: string }[]): JobFormErrors {
  const errors: JobFormErrors = {};
  for (const issue of issues) {
    const field = String(issue.loc[0] === 'body' ? issue.loc[1] : issue.loc[0]) as JobFormField;
    if (!errors[field]) errors[field] = issue.msg;
  }
  return errors;
}

/** A non-blocking notice: targets usually expect JSON, but any text may be sent. */
export const BODY_NOT_JSON = 'This body is not valid JSON; it will be sent as plain text';

export function bodyWarning(body: string): string | null {
  if (!body.trim()) return null;
  try {
    JSON.parse(body);
    return null;
  } catch {
    return BODY_NOT_JSON;
  }
}
