import {
  NodeConnectionTypes,
  type IDataObject,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
  type IPollFunctions,
} from 'n8n-workflow';
import type { Job, JobLogsResponse } from '../shared/rules/jobs/job-types';
import { cronbeamApiRequest } from '../shared/api';
import { testCronbeamCredentials } from '../shared/credential-test';
import { getJobOptions, listJobs } from '../shared/jobs';
import { newRunEvents, type JobWatchState, type RunEvent, type RunEventMatch } from '../shared/run-events';

/**
 * The trigger's static data: one watch state per job id, and the creation
 * time of the newest job of the account at the last poll (server clock).
 */
interface TriggerState {
  jobs?: Record<string, JobWatchState>;
  newestJobCreatedAt?: string | null;
}

/**
 * A job without a watch state is either new since the last poll (all its runs
 * are news) or an existing job just added to the watch list (its history is
 * only recorded, like everything on the first poll).
 */
function startingPoint(state: TriggerState, job: Job): JobWatchState | undefined {
  if (state.jobs === undefined) return undefined;
  const newest = state.newestJobCreatedAt;
  const createdSince = !newest || Date.parse(job.created_at) > Date.parse(newest);
  return createdSince ? { seen: [], lastOutcome: null } : undefined;
}

function newestCreatedAt(jobs: Job[], before: string | null | undefined): string | null {
  return jobs.reduce<string | null>((newest, job) => (!newest || Date.parse(job.created_at) > Date.parse(newest) ? job.created_at : newest), before ?? null);
}

function toItem(job: Job, match: RunEventMatch): INodeExecutionData {
  return { json: { event: match.event, job_id: job.job_id, job_name: job.name, job_url: job.url, ...match.entry } as IDataObject };
}

/**
 * Fires on finished runs of the chosen jobs by polling their logs. Each run
 * fires once: the run ids already seen are kept in the workflow's static
 * data, which n8n stores with the workflow, so a restart does not replay them.
 * The first poll after activation only records what exists.
 */
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a trigger starts workflows and is no tool for an agent; later versions of the rule skip triggers.
export class CronbeamTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Cronbeam Trigger',
    name: 'cronbeamTrigger',
    icon: { light: 'file:../../icons/cronbeam.svg', dark: 'file:../../icons/cronbeam.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle: '={{"On " + $parameter["events"].join(", ")}}',
    description: 'Starts the workflow when a Cronbeam job fails (or succeeds, or recovers)',
    defaults: { name: 'Cronbeam Trigger' },
    polling: true,
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'cronbeamApi', required: true, testedBy: 'cronbeamApiConnection' }],
    properties: [
      {
        displayName: 'Job Names or IDs',
        name: 'jobs',
        type: 'multiOptions',
        typeOptions: { loadOptionsMethod: 'getJobs' },
        default: [],
        description:
          'The jobs to watch; none means every job of the account. Each poll reads the log of every watched job, so watching many jobs uses more of the API key\'s rate limit. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
      },
      {
        displayName: 'Events',
        name: 'events',
        type: 'multiOptions',
        options: [
          { name: 'Failed', value: 'failed', description: 'A run failed (each attempt, retries included)' },
          { name: 'Recovered', value: 'recovered', description: 'A run succeeded after the job\'s previous run had failed' },
          { name: 'Succeeded', value: 'succeeded', description: 'A run succeeded (recoveries fire as Recovered when that is chosen too)' },
        ],
        default: ['failed'],
        required: true,
        description: 'Which finished runs start the workflow',
      },
    ],
  };

  methods = {
    loadOptions: { getJobs: getJobOptions },
    credentialTest: { cronbeamApiConnection: testCronbeamCredentials },
  };

  async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
    const chosen = this.getNodeParameter('jobs', []) as string[];
    const wanted = this.getNodeParameter('events', ['failed']) as RunEvent[];
    const state = this.getWorkflowStaticData('node') as TriggerState;
    const previous = state.jobs ?? {};
    const manual = this.getMode() === 'manual';

    const jobs = await listJobs.call(this);
    // A chosen job that has been deleted cannot run again: it is dropped, not an error on every poll.
    const watched = chosen.length ? jobs.filter((job) => chosen.includes(job.job_id)) : jobs;

    const next: Record<string, JobWatchState> = {};
    const items: INodeExecutionData[] = [];
    let sample: INodeExecutionData | null = null;
    for (const job of watched) {
      const { logs } = (await cronbeamApiRequest.call(this, 'GET', `/prog/jobs/${encodeURIComponent(job.job_id)}/logs`)) as JobLogsResponse;
      const { matches, next: watch } = newRunEvents(previous[job.job_id] ?? startingPoint(state, job), logs, wanted);
      next[job.job_id] = watch;
      items.push(...matches.map((match) => toItem(job, match)));
      // "Fetch test event" in the editor shows the newest matching run even when it was seen before.
      if (manual && !sample) {
        const newest = newRunEvents({ seen: [], lastOutcome: null }, logs, wanted).matches.at(-1);
        if (newest) sample = toItem(job, newest);
      }
    }
    if (!manual) {
      state.jobs = next;
      state.newestJobCreatedAt = newestCreatedAt(jobs, state.newestJobCreatedAt);
    }

    if (items.length) return [items];
    return manual && sample ? [[sample]] : null;
  }
}
