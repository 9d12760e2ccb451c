import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { progPath } from '../../../sdk/src/core';
import type { Job, JobDefinition, JobLogEntry, JobLogsResponse } from '../../../../shared/src/jobs/job-types';
import { cronbeamApiRequest } from '../shared/api';
import { listJobs, resolveJobId } from '../shared/jobs';
import { limitResults, statusFilter } from './list-options';
import { runMonitorOperation } from './monitor-operations';

/** The node's fields for the optional parts of a definition, as the Create and Update collections hold them. */
interface DefinitionFields {
  name?: string;
  url?: string;
  cronExpression?: string;
  method?: string;
  body?: string;
  notifyOnFailure?: boolean;
  headers?: { header?: Array<{ name?: string; value?: string }> };
  timeZone?: string;
  timeoutSeconds?: number;
  autoPauseAfter?: number;
  expectedStatus?: string;
  bodyContains?: string;
  jsonPath?: string;
  jsonEquals?: string;
  everySeconds?: number;
  runAt?: string;
  startsAt?: string;
  endsAt?: string;
  jitterSeconds?: number;
  overlap?: JobDefinition['overlap'];
  catchUp?: JobDefinition['catch_up'];
  catchUpWindowSeconds?: number;
}

type Rules = NonNullable<JobDefinition['response_rules']>;

/** "JSON Equals" as typed: a JSON scalar (42, true, null, "text") when it parses as one, else the text itself. */
function jsonScalar(text: string): Rules['json_equals'] {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value as Rules['json_equals'];
  } catch {
    // Not JSON: compared as text.
  }
  return text;
}

/** The response rules after the node's rule fields are applied to `current` (the job's rules on update; none on create). */
function responseRules(fields: DefinitionFields, current: JobDefinition['response_rules']): JobDefinition['response_rules'] | undefined {
  const given = [fields.expectedStatus, fields.bodyContains, fields.jsonPath, fields.jsonEquals].some((f) => f !== undefined);
  if (!given) return undefined;
  const rules: Rules = { expected_status: '200-299', body_contains: null, json_path: null, json_equals: null, ...current };
  if (fields.expectedStatus !== undefined) rules.expected_status = fields.expectedStatus;
  // An emptied field turns its rule off.
  if (fields.bodyContains !== undefined) rules.body_contains = fields.bodyContains || null;
  if (fields.jsonPath !== undefined) rules.json_path = fields.jsonPath || null;
  if (fields.jsonEquals !== undefined) rules.json_equals = jsonScalar(fields.jsonEquals);
  // Emptying JSON Path turns the JSON rule off, its value with it (the API refuses a value without its path).
  if (fields.jsonPath === '' && fields.jsonEquals === undefined) rules.json_equals = null;
  return rules;
}

/** Header rows to the API's object; the API trims names and values and drops empty rows, as the dashboard does. */
function headersObject(rows: DefinitionFields['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows?.header ?? []) headers[row.name ?? ''] = row.value ?? '';
  return headers;
}

/** The API fields the node's fields set; unset ones are left out. `rules`: the job's response rules the rule fields change. */
function definitionChanges(fields: DefinitionFields, rules: JobDefinition['response_rules'] = null): Partial<JobDefinition> {
  const changes: Partial<JobDefinition> = {};
  if (fields.name !== undefined) changes.name = fields.name;
  if (fields.url !== undefined) changes.url = fields.url;
  if (fields.cronExpression) changes.cron_expression = fields.cronExpression;
  if (fields.everySeconds !== undefined) changes.every_seconds = fields.everySeconds;
  if (fields.runAt) changes.run_at = fields.runAt;
  // A job has one schedule form: the one given replaces the others (from cron to an interval, say).
  if (changes.cron_expression !== undefined || changes.every_seconds !== undefined || changes.run_at !== undefined) {
    changes.cron_expression ??= null;
    changes.every_seconds ??= null;
    changes.run_at ??= null;
  }
  // An emptied instant removes it.
  if (fields.startsAt !== undefined) changes.starts_at = fields.startsAt || null;
  if (fields.endsAt !== undefined) changes.ends_at = fields.endsAt || null;
  if (fields.jitterSeconds !== undefined) changes.jitter_seconds = fields.jitterSeconds;
  if (fields.overlap !== undefined) changes.overlap = fields.overlap;
  if (fields.catchUp !== undefined) {
    changes.catch_up = fields.catchUp;
    if (fields.catchUp !== 'all_within') changes.catch_up_window_seconds = null;
  }
  if (fields.catchUpWindowSeconds !== undefined && fields.catchUp !== 'latest' && fields.catchUp !== 'none') changes.catch_up_window_seconds = fields.catchUpWindowSeconds;
  if (fields.method !== undefined) changes.method = fields.method as JobDefinition['method'];
  if (fields.body !== undefined) changes.body = fields.body;
  if (fields.notifyOnFailure !== undefined) changes.notify_on_failure = fields.notifyOnFailure;
  if (fields.headers !== undefined) changes.headers = headersObject(fields.headers);
  if (fields.timeZone !== undefined) changes.time_zone = fields.timeZone;
  if (fields.timeoutSeconds !== undefined) changes.timeout_seconds = fields.timeoutSeconds;
  if (fields.autoPauseAfter !== undefined) changes.auto_pause_after = fields.autoPauseAfter;
  const changedRules = responseRules(fields, rules);
  if (changedRules !== undefined) changes.response_rules = changedRules;
  return changes;
}

/** Runs one operation for one input item; the result becomes one output item, or one per array element. */
export async function runOperation(this: IExecuteFunctions, resource: string, operation: string, i: number): Promise<IDataObject | IDataObject[]> {
  const request = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: IDataObject) =>
    cronbeamApiRequest.call(this, method, path, { body, itemIndex: i }) as Promise<T>;

  if (resource === 'job') {
    switch (operation) {
      case 'create': {
        const fields: DefinitionFields = {
          name: this.getNodeParameter('name', i) as string,
          url: this.getNodeParameter('url', i) as string,
          cronExpression: this.getNodeParameter('cronExpression', i, '') as string,
          ...(this.getNodeParameter('additionalFields', i, {}) as DefinitionFields),
        };
        return await request<IDataObject>('POST', '/prog/jobs', definitionChanges(fields) as IDataObject);
      }
      case 'get':
        return await request<IDataObject>('GET', progPath('/prog/jobs/{job_id}', { job_id: await resolveJobId.call(this, i) }));
      case 'getAll': {
        const wanted = statusFilter(this, i);
        const jobs = (await listJobs.call(this, i)).filter((job) => !wanted.length || wanted.includes(job.status));
        return limitResults(this, jobs, i) as unknown as IDataObject[];
      }
      case 'update': {
        const fields = this.getNodeParameter('updateFields', i, {}) as DefinitionFields;
        if (!Object.keys(definitionChanges(fields)).length) throw new NodeOperationError(this.getNode(), 'Add at least one field to update', { itemIndex: i });
        const jobId = await resolveJobId.call(this, i);
        // PUT replaces the whole definition: the job goes back as the API answered it, with the changes (its read-only fields are ignored).
        const current = await request<Job>('GET', progPath('/prog/jobs/{job_id}', { job_id: jobId }));
        const changes = definitionChanges(fields, current.response_rules);
        return await request<IDataObject>('PUT', progPath('/prog/jobs/{job_id}', { job_id: jobId }), { ...current, ...changes } as IDataObject);
      }
      case 'delete': {
        const jobId = await resolveJobId.call(this, i);
        const answer = await request<{ message: string }>('DELETE', progPath('/prog/jobs/{job_id}', { job_id: jobId }));
        return { job_id: jobId, deleted: true, message: answer.message };
      }
      case 'pause':
        return await request<IDataObject>('POST', progPath('/prog/jobs/{job_id}/pause', { job_id: await resolveJobId.call(this, i) }));
      case 'resume':
        return await request<IDataObject>('POST', progPath('/prog/jobs/{job_id}/resume', { job_id: await resolveJobId.call(this, i) }));
      case 'run': {
        const jobId = await resolveJobId.call(this, i);
        const entry = await request<JobLogEntry>('POST', progPath('/prog/jobs/{job_id}/run', { job_id: jobId }));
        return { job_id: jobId, ...entry };
      }
    }
  }
  if (resource === 'monitor') return await runMonitorOperation.call(this, operation, i);
  if (resource === 'log' && operation === 'getAll') {
    const jobId = await resolveJobId.call(this, i);
    const wanted = statusFilter(this, i);
    const { logs } = await request<JobLogsResponse>('GET', progPath('/prog/jobs/{job_id}/logs', { job_id: jobId }));
    const matching = logs.filter((entry) => !wanted.length || wanted.includes(entry.status));
    return limitResults(this, matching, i).map((entry) => ({ job_id: jobId, ...entry }));
  }
  throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known for the resource "${resource}"`, { itemIndex: i });
}
