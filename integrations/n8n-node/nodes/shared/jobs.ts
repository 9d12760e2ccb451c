import {
  NodeOperationError,
  type IExecuteFunctions,
  type ILoadOptionsFunctions,
  type INodeListSearchResult,
  type INodePropertyOptions,
} from 'n8n-workflow';
import { JOB_LIMITS } from '../../../../shared/src/jobs/job-limits';
import type { Job } from '../../../../shared/src/jobs/job-types';
import { cronbeamApiRequest, type CronbeamContext } from './api';
import { accountItemLocator, locatorValue, pickerOptions, searchResults } from './locators';

/** The job a Job or Log operation acts on: picked from the list, typed by name, or by id. */
export const jobLocator = accountItemLocator({
  noun: 'Job',
  name: 'jobId',
  searchListMethod: 'searchJobs',
  namePlaceholder: 'e.g. nightly-backup',
  nameHint: `Job names are unique per account: letters, numbers, - and _, at most ${JOB_LIMITS.nameMaxLength} characters`,
});

export async function listJobs(this: CronbeamContext, itemIndex?: number): Promise<Job[]> {
  return (await cronbeamApiRequest.call(this, 'GET', '/prog/jobs', { itemIndex })) as Job[];
}

/** The job list behind the "From List" mode, filtered by the text typed into its search box. */
export async function searchJobs(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
  return searchResults(await listJobs.call(this), filter, (job) => job.job_id);
}

/** The trigger's job picker: every job by name, with its schedule and target as the hint. */
export async function getJobOptions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  return pickerOptions(await listJobs.call(this), (job) => job.job_id, (job) => `${job.cron_expression ?? (job.every_seconds != null ? `every ${job.every_seconds}s` : `once at ${job.run_at}`)} → ${job.method} ${job.url}`);
}

/** The job id the locator names; "By Name" looks the name up in the account's jobs. */
export async function resolveJobId(this: IExecuteFunctions, itemIndex: number): Promise<string> {
  const { byName, value } = locatorValue(this, 'jobId', 'Job', itemIndex);
  if (!byName) return value;
  const match = (await listJobs.call(this, itemIndex)).find((job) => job.name === value);
  if (!match) throw new NodeOperationError(this.getNode(), `No job named '${value}'`, { itemIndex });
  return match.job_id;
}
