import type { INodeProperties } from 'n8n-workflow';
import { JOB_LIMITS, JOB_LOGS_LIMITS } from '../../../../shared/src/jobs/job-limits';
import { HTTP_METHODS, JOB_STATUSES } from '../../../../shared/src/jobs/job-types';
import { SCHEDULE_LIMITS } from '../../../../shared/src/jobs/schedule';
import { jobLocator } from '../shared/jobs';
import { getManyFields } from './list-options';

const forJob = (...operation: string[]) => ({ show: { resource: ['job'], operation } });
const forLog = (...operation: string[]) => ({ show: { resource: ['log'], operation } });

export const resourceProperty: INodeProperties = {
  displayName: 'Resource',
  name: 'resource',
  type: 'options',
  noDataExpression: true,
  options: [
    { name: 'Job', value: 'job' },
    { name: 'Log', value: 'log' },
    { name: 'Monitor', value: 'monitor' },
  ],
  default: 'job',
};

export const jobOperations: INodeProperties = {
  displayName: 'Operation',
  name: 'operation',
  type: 'options',
  noDataExpression: true,
  displayOptions: { show: { resource: ['job'] } },
  options: [
    { name: 'Create', value: 'create', action: 'Create a job', description: 'Schedule a new HTTP request' },
    { name: 'Delete', value: 'delete', action: 'Delete a job', description: 'Delete a job and its logs permanently' },
    { name: 'Get', value: 'get', action: 'Get a job' },
    { name: 'Get Many', value: 'getAll', action: 'Get many jobs' },
    { name: 'Pause', value: 'pause', action: 'Pause a job', description: 'Stop scheduling a job, keeping its configuration' },
    { name: 'Resume', value: 'resume', action: 'Resume a job', description: 'Schedule a paused job again from the next cron instant' },
    { name: 'Run Now', value: 'run', action: 'Run a job now', description: 'Send the job\'s request once now and return the outcome (counts toward the quota)' },
    { name: 'Update', value: 'update', action: 'Update a job', description: 'Change some fields of a job; the others keep their values' },
  ],
  default: 'create',
};

export const logOperations: INodeProperties = {
  displayName: 'Operation',
  name: 'operation',
  type: 'options',
  noDataExpression: true,
  displayOptions: { show: { resource: ['log'] } },
  options: [{ name: 'Get Many', value: 'getAll', action: 'Get the latest executions of a job', description: 'The latest finished runs of a job, newest first' }],
  default: 'getAll',
};

const nameField: INodeProperties = {
  displayName: 'Name',
  name: 'name',
  type: 'string',
  default: '',
  placeholder: 'e.g. nightly-backup',
  description: `Unique among your jobs: letters, numbers, hyphens (-) and underscores (_), at most ${JOB_LIMITS.nameMaxLength} characters`,
};

const urlField: INodeProperties = {
  displayName: 'URL',
  name: 'url',
  type: 'string',
  default: '',
  placeholder: 'https://example.com/hooks/backup',
  description: `The http:// or https:// address to call, at most ${JOB_LIMITS.urlMaxLength} characters`,
};

const cronField: INodeProperties = {
  displayName: 'Cron Expression',
  name: 'cronExpression',
  type: 'string',
  default: '',
  placeholder: '*/5 * * * *',
  description:
    'Five fields, read in the Time Zone (UTC unless set): minute, hour, day of month, month, day of week (e.g. 0 9 * * 1-5 is 09:00 on weekdays), or six with a leading second. Leave it empty for a job on Every (Seconds) or Run At.',
};

/** Optional parts of a job definition, shared by Create (Additional Fields) and Update (Update Fields). */
const optionalDefinitionFields: INodeProperties[] = [
  {
    displayName: 'Body',
    name: 'body',
    type: 'string',
    typeOptions: { rows: 4 },
    default: '',
    description: `Text sent as the request body, at most ${JOB_LIMITS.bodyMaxBytes / 1024} KiB`,
  },
  {
    displayName: 'Headers',
    name: 'headers',
    type: 'fixedCollection',
    typeOptions: { multipleValues: true },
    placeholder: 'Add Header',
    default: {},
    description: `At most ${JOB_LIMITS.maxHeaders} headers; values at most ${JOB_LIMITS.headerValueMaxLength} characters, without line breaks. On update, the list replaces the job's headers.`,
    options: [
      {
        displayName: 'Header',
        name: 'header',
        values: [
          { displayName: 'Name', name: 'name', type: 'string', default: '' },
          { displayName: 'Value', name: 'value', type: 'string', default: '' },
        ],
      },
    ],
  },
  {
    displayName: 'Method',
    name: 'method',
    type: 'options',
    options: HTTP_METHODS.map((method) => ({ name: method, value: method })),
    default: 'GET',
    description: 'The HTTP method of the request',
  },
  {
    displayName: 'Notify on Failure',
    name: 'notifyOnFailure',
    type: 'boolean',
    default: false,
    description: 'Whether Cronbeam emails you when a run fails after its retries',
  },
  {
    displayName: 'Time Zone',
    name: 'timeZone',
    type: 'string',
    default: 'UTC',
    placeholder: 'Europe/Berlin',
    description:
      'IANA time zone the cron expression is read in. A local time skipped by a daylight-saving change fires once at the shifted instant; one that occurs twice fires once.',
  },
  {
    displayName: 'Timeout (Seconds)',
    name: 'timeoutSeconds',
    type: 'number',
    typeOptions: { minValue: 1 },
    default: 30,
    description: "How long a run may take before it fails, up to the server's maximum (the API names it when a value is over)",
  },
  {
    displayName: 'Auto-Pause After Failures',
    name: 'autoPauseAfter',
    type: 'number',
    typeOptions: { minValue: 1 },
    default: 5,
    description: 'Pause the job (and alert) after this many failed runs in a row',
  },
  {
    displayName: 'Expected Status',
    name: 'expectedStatus',
    type: 'string',
    default: '200-299',
    placeholder: '200-299, 304',
    description: 'Status codes and ranges that count as success',
  },
  {
    displayName: 'Body Contains',
    name: 'bodyContains',
    type: 'string',
    default: '',
    description: 'Text the response body must contain for the run to succeed; empty turns the rule off',
  },
  {
    displayName: 'JSON Path',
    name: 'jsonPath',
    type: 'string',
    default: '',
    placeholder: '$.status',
    description: 'A path into the JSON response whose value must equal JSON Equals; empty turns the rule off',
  },
  {
    displayName: 'JSON Equals',
    name: 'jsonEquals',
    type: 'string',
    default: '',
    placeholder: 'ok',
    description: 'The value at JSON Path: a JSON scalar (42, true, null, "text") when it parses as one, else the text as typed',
  },
  {
    displayName: 'Every (Seconds)',
    name: 'everySeconds',
    type: 'number',
    typeOptions: { minValue: 1, maxValue: SCHEDULE_LIMITS.maxEverySeconds },
    default: 3600,
    description: "Run every this many seconds instead of on the cron expression (at least the plan's shortest interval), counted from Starts At or the creation second",
  },
  {
    displayName: 'Run At',
    name: 'runAt',
    type: 'string',
    default: '',
    placeholder: '2026-12-01T09:00:00Z',
    description: 'Run once at this ISO 8601 instant (with its offset) instead of on the cron expression; it must be in the future',
  },
  {
    displayName: 'Starts At',
    name: 'startsAt',
    type: 'string',
    default: '',
    placeholder: '2026-12-01T00:00:00Z',
    description: 'No run before this ISO 8601 instant (an interval counts from it); empty: from now',
  },
  {
    displayName: 'Ends At',
    name: 'endsAt',
    type: 'string',
    default: '',
    placeholder: '2026-12-31T23:59:59Z',
    description: 'No run after this ISO 8601 instant; empty: no end',
  },
  {
    displayName: 'Jitter (Seconds)',
    name: 'jitterSeconds',
    type: 'number',
    typeOptions: { minValue: 0, maxValue: SCHEDULE_LIMITS.maxJitterSeconds },
    default: 0,
    description: "Shift every run by a fixed offset within this many seconds (it depends on the job's name), so that many jobs on one schedule do not hit a target at once",
  },
  {
    displayName: 'Overlap',
    name: 'overlap',
    type: 'options',
    options: [
      { name: 'Allow', value: 'allow', description: 'A run is sent even while the previous run is in flight' },
      { name: 'Skip', value: 'skip', description: 'A run due while the previous run is in flight is recorded as skipped' },
    ],
    default: 'allow',
    description: 'What a due run does while the previous run of the job is still in flight',
  },
  {
    displayName: 'Catch Up',
    name: 'catchUp',
    type: 'options',
    options: [
      { name: 'Latest', value: 'latest', description: 'After an outage the latest missed run fires' },
      { name: 'None', value: 'none', description: 'No missed run fires' },
      { name: 'All Within Window', value: 'all_within', description: 'Every missed run within Catch-Up Window fires, also on resume' },
    ],
    default: 'latest',
    description: 'What runs of the due times missed in an outage or a pause',
  },
  {
    displayName: 'Catch-Up Window (Seconds)',
    name: 'catchUpWindowSeconds',
    type: 'number',
    typeOptions: { minValue: 1, maxValue: SCHEDULE_LIMITS.maxCatchUpWindowSeconds },
    default: 3600,
    description: 'With Catch Up "All Within Window": how far back missed runs still fire',
  },
];

export const jobFields: INodeProperties[] = [
  { ...jobLocator, displayOptions: forJob('get', 'update', 'delete', 'pause', 'resume', 'run') },

  { ...nameField, required: true, displayOptions: forJob('create') },
  { ...urlField, required: true, displayOptions: forJob('create') },
  { ...cronField, displayOptions: forJob('create') },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: forJob('create'),
    options: optionalDefinitionFields,
  },

  {
    displayName: 'Update Fields',
    name: 'updateFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: forJob('update'),
    options: [...optionalDefinitionFields, cronField, nameField, urlField].sort((a, b) => a.displayName.localeCompare(b.displayName)),
  },

  ...getManyFields({
    resource: 'job',
    operations: ['getAll'],
    statuses: JOB_STATUSES.map((status) => ({ name: status, value: status })),
    statusDescription: 'Only jobs in one of these statuses',
  }),
];

export const logFields: INodeProperties[] = [
  { ...jobLocator, displayOptions: forLog('getAll') },
  ...getManyFields({
    resource: 'log',
    operations: ['getAll'],
    limitMax: JOB_LOGS_LIMITS.default,
    returnAllHint: `The API returns a job's latest ${JOB_LOGS_LIMITS.default} runs`,
    statuses: [
      { name: 'Failed', value: 'failed' },
      { name: 'Missed', value: 'missed' },
      { name: 'Skipped (Quota)', value: 'skipped' },
      { name: 'Success', value: 'success' },
    ],
    statusDescription: 'Only runs with one of these outcomes',
  }),
];
