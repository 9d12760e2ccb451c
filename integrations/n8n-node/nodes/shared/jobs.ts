import {
  NodeOperationError,
  type IExecuteFunctions,
  type ILoadOptionsFunctions,
  type INodeListSearchResult,
  type INodeParameterResourceLocator,
  type INodeProperties,
  type INodePropertyOptions,
} from 'n8n-workflow';
import { JOB_LIMITS } from './rules/jobs/job-limits';
import type { Job } from './rules/jobs/job-types';
import { cronbeamApiRequest, type CronbeamContext } from './api';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The job a Job or Log operation acts on: picked from the list, typed by name, or by id. */
export const jobLocator: INodeProperties = {
  displayName: 'Job',
  name: 'jobId',
  type: 'resourceLocator',
  default: { mode: 'list', value: '' },
  required: true,
  description: 'The job to act on',
  modes: [
    {
      displayName: 'From List',
      name: 'list',
      type: 'list',
      placeholder: 'Select a job...',
      typeOptions: { searchListMethod: 'searchJobs', searchable: true },
    },
    {
      displayName: 'By Name',
      name: 'name',
      type: 'string',
      placeholder: 'e.g. nightly-backup',
      hint: `Job names are unique per account: letters, numbers, - and _, at most ${JOB_LIMITS.nameMaxLength} characters`,
    },
    {
      displayName: 'By ID',
      name: 'id',
      type: 'string',
      placeholder: 'e.g. 3f1c2a7e-1d2b-4c5d-8e9f-0a1b2c3d4e5f',
      validation: [{ type: 'regex', properties: { regex: UUID_PATTERN, errorMessage: 'Not a valid job ID' } }],
    },
  ],
};

export async function listJobs(this: CronbeamContext, itemIndex?: number): Promise<Job[]> {
  return (await cronbeamApiRequest.call(this, 'GET', '/prog/jobs', { itemIndex })) as Job[];
}

/** The job list behind the "From List" mode, filtered by the text typed into its search box. */
export async function searchJobs(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
  const needle = (filter ?? '').trim().toLowerCase();
  const jobs = await listJobs.call(this);
  return {
    results: jobs
      .filter((job) => !needle || job.name.toLowerCase().includes(needle))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((job) => ({ name: job.name, value: job.job_id })),
  };
}

/** The trigger's job picker: every job by name, with its schedule and target as the hint. */
export async function getJobOptions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  const jobs = await listJobs.call(this);
  return jobs
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((job) => ({ name: job.name, value: job.job_id, description: `${job.cron_expression} → ${job.method} ${job.url}` }));
}

/** The job id the locator names; "By Name" looks the name up in the account's jobs. */
export async function resolveJobId(this: IExecuteFunctions, itemIndex: number): Promise<string> {
  const locator = this.getNodeParameter('jobId', itemIndex) as INodeParameterResourceLocator;
  const value = String(locator?.value ?? '').trim();
  if (!value) throw new NodeOperationError(this.getNode(), 'Job is required: pick one from the list, or give its name or ID', { itemIndex });
  if (locator.mode !== 'name') return value;
  const match = (await listJobs.call(this, itemIndex)).find((job) => job.name === value);
  if (!match) throw new NodeOperationError(this.getNode(), `No job named '${value}'`, { itemIndex });
  return match.job_id;
}
