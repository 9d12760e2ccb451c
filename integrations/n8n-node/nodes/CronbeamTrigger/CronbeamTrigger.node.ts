import {
  NodeConnectionTypes,
  type IDataObject,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
  type IPollFunctions,
} from 'n8n-workflow';
import { progPath } from '../../../sdk/src/core';
import type { Job, JobLogEntry, JobLogsResponse } from '../../../../shared/src/jobs/job-types';
import type { Monitor, MonitorEvent } from '../../../../shared/src/notifications/monitor-types';
import { cronbeamApiRequest } from '../shared/api';
import { getJobOptions, listJobs } from '../shared/jobs';
import { newMonitorAlerts, type MonitorAlert, type MonitorAlertMatch, type MonitorWatchState } from '../shared/monitor-alerts';
import { getMonitorOptions, listMonitors } from '../shared/monitors';
import { newRunEvents, type JobWatchState, type RunEvent, type RunEventMatch } from '../shared/run-events';

/**
 * The trigger's static data: one watch state per job id (or monitor id), and
 * the creation time of the newest job (or monitor) of the account at the last
 * poll (server clock).
 */
interface TriggerState {
  jobs?: Record<string, JobWatchState>;
  newestJobCreatedAt?: string | null;
  monitors?: Record<string, MonitorWatchState>;
  newestMonitorCreatedAt?: string | null;
}

/**
 * A job or monitor without a watch state is either new since the last poll
 * (all its history is news) or an existing one just added to the watch list
 * (its history is only recorded, like everything on the first poll).
 */
function isNewSince(watched: Record<string, unknown> | undefined, newest: string | null | undefined, item: { created_at: string }): boolean {
  if (watched === undefined) return false;
  return !newest || Date.parse(item.created_at) > Date.parse(newest);
}

function newestCreatedAt(items: Array<{ created_at: string }>, before: string | null | undefined): string | null {
  return items.reduce<string | null>((newest, item) => (!newest || Date.parse(item.created_at) > Date.parse(newest) ? item.created_at : newest), before ?? null);
}

function runItem(job: Job, match: RunEventMatch): INodeExecutionData {
  return { json: { event: match.event, job_id: job.job_id, job_name: job.name, job_url: job.url, ...match.entry } as IDataObject };
}

function monitorItem(monitor: Monitor, match: MonitorAlertMatch): INodeExecutionData {
  return {
    json: { event: match.event, monitor_id: monitor.monitor_id, monitor_name: monitor.name, ping_url: monitor.ping_url, status: monitor.status, ...match.entry } as IDataObject,
  };
}

/**
 * Fires on finished runs of the chosen jobs by polling their logs, or on the
 * chosen heartbeat monitors going down and recovering by polling their
 * events. Each run or change fires once: what was already seen is kept in the
 * workflow's static data, which n8n stores with the workflow, so a restart
 * does not replay it. The first poll after activation only records what exists.
 */
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a trigger starts workflows and is no tool for an agent; later versions of the rule skip triggers.
export class CronbeamTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Cronbeam Trigger',
    name: 'cronbeamTrigger',
    icon: { light: 'file:../../icons/cronbeam.svg', dark: 'file:../../icons/cronbeam.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle: '={{"On " + ($parameter["watch"] === "monitors" ? $parameter["monitorEvents"] : $parameter["events"]).join(", ")}}',
    description: 'Starts the workflow when a Cronbeam job fails (or succeeds, or recovers), or a heartbeat monitor goes down (or recovers)',
    defaults: { name: 'Cronbeam Trigger' },
    polling: true,
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'cronbeamApi', required: true }],
    properties: [
      {
        displayName: 'Watch',
        name: 'watch',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'Job Runs', value: 'runs', description: 'Finished runs of cron jobs' },
          { name: 'Heartbeat Monitors', value: 'monitors', description: 'Monitors going down (a ping missed or a failure reported) and recovering' },
        ],
        default: 'runs',
      },
      {
        displayName: 'Job Names or IDs',
        name: 'jobs',
        type: 'multiOptions',
        typeOptions: { loadOptionsMethod: 'getJobs' },
        default: [],
        displayOptions: { show: { watch: ['runs'] } },
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
        displayOptions: { show: { watch: ['runs'] } },
      },
      {
        displayName: 'Monitor Names or IDs',
        name: 'monitors',
        type: 'multiOptions',
        typeOptions: { loadOptionsMethod: 'getMonitors' },
        default: [],
        description:
          'The monitors to watch; none means every monitor of the account. Each poll reads the events of every watched monitor. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
        displayOptions: { show: { watch: ['monitors'] } },
      },
      {
        displayName: 'Events',
        name: 'monitorEvents',
        type: 'multiOptions',
        options: [
          { name: 'Down', value: 'down', description: 'The monitor went down: a ping came later than its grace time, or a failure ping came (once per outage)' },
          { name: 'Recovered', value: 'recovered', description: 'A success ping came while the monitor was down' },
        ],
        default: ['down'],
        required: true,
        description: 'Which changes of a monitor start the workflow',
        displayOptions: { show: { watch: ['monitors'] } },
      },
    ],
  };

  methods = {
    loadOptions: { getJobs: getJobOptions, getMonitors: getMonitorOptions },
  };

  async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
    const state = this.getWorkflowStaticData('node') as TriggerState;
    const manual = this.getMode() === 'manual';
    const { items, sample } = this.getNodeParameter('watch', 'runs') === 'monitors' ? await pollMonitors.call(this, state, manual) : await pollRuns.call(this, state, manual);
    if (items.length) return [items];
    return manual && sample ? [[sample]] : null;
  }
}

interface PollResult {
  items: INodeExecutionData[];
  /** "Fetch test event" in the editor shows the newest match even when it was seen before. */
  sample: INodeExecutionData | null;
}

/** What differs between watching jobs' runs and monitors' events. */
interface Watch<Item extends { created_at: string }, History, State, Match> {
  /** The account's jobs or monitors. */
  items: Item[];
  /** The ids picked in the node; none: all. */
  chosen: string[];
  idOf(item: Item): string;
  /** The item's newest history (a job's log window, a monitor's events). */
  historyOf(item: Item): Promise<History>;
  /** The watch state of an item seen for the first time whose whole history is news. */
  fresh(): State;
  /** The new matches in a history since `previous` (undefined: only record it), and the state to keep. */
  compare(previous: State | undefined, history: History): { matches: Match[]; next: State };
  toItem(item: Item, match: Match): INodeExecutionData;
  /** What the last poll kept: the states by id (undefined before the first poll) and the newest creation time. */
  kept: { states: Record<string, State> | undefined; newestCreatedAt: string | null | undefined };
}

/** One poll: reads each watched item's history and compares it with what the last poll kept. */
async function pollWatched<Item extends { created_at: string }, History, State, Match>(
  watch: Watch<Item, History, State, Match>,
  manual: boolean,
): Promise<PollResult & { states: Record<string, State>; newestCreatedAt: string | null }> {
  const { states, newestCreatedAt: newest } = watch.kept;
  // A chosen item that has been deleted can fire no more: it is dropped, not an error on every poll.
  const watched = watch.chosen.length ? watch.items.filter((item) => watch.chosen.includes(watch.idOf(item))) : watch.items;
  const next: Record<string, State> = {};
  const items: INodeExecutionData[] = [];
  let sample: INodeExecutionData | null = null;
  for (const item of watched) {
    const history = await watch.historyOf(item);
    const previous = states?.[watch.idOf(item)] ?? (isNewSince(states, newest, item) ? watch.fresh() : undefined);
    const { matches, next: state } = watch.compare(previous, history);
    next[watch.idOf(item)] = state;
    items.push(...matches.map((match) => watch.toItem(item, match)));
    if (manual && !sample) {
      const latest = watch.compare(watch.fresh(), history).matches.at(-1);
      if (latest) sample = watch.toItem(item, latest);
    }
  }
  return { items, sample, states: next, newestCreatedAt: newestCreatedAt(watch.items, newest) };
}

async function pollRuns(this: IPollFunctions, state: TriggerState, manual: boolean): Promise<PollResult> {
  const wanted = this.getNodeParameter('events', ['failed']) as RunEvent[];
  const result = await pollWatched<Job, JobLogEntry[], JobWatchState, RunEventMatch>(
    {
      items: await listJobs.call(this),
      chosen: this.getNodeParameter('jobs', []) as string[],
      idOf: (job) => job.job_id,
      historyOf: async (job) => ((await cronbeamApiRequest.call(this, 'GET', progPath('/prog/jobs/{job_id}/logs', { job_id: job.job_id }))) as JobLogsResponse).logs,
      fresh: () => ({ seen: [], lastOutcome: null }),
      compare: (previous, logs) => newRunEvents(previous, logs, wanted),
      toItem: runItem,
      kept: { states: state.jobs, newestCreatedAt: state.newestJobCreatedAt },
    },
    manual,
  );
  if (!manual) {
    state.jobs = result.states;
    state.newestJobCreatedAt = result.newestCreatedAt;
  }
  return result;
}

async function pollMonitors(this: IPollFunctions, state: TriggerState, manual: boolean): Promise<PollResult> {
  const wanted = this.getNodeParameter('monitorEvents', ['down']) as MonitorAlert[];
  const result = await pollWatched<Monitor, MonitorEvent[], MonitorWatchState, MonitorAlertMatch>(
    {
      items: await listMonitors.call(this),
      chosen: this.getNodeParameter('monitors', []) as string[],
      idOf: (monitor) => monitor.monitor_id,
      historyOf: async (monitor) => ((await cronbeamApiRequest.call(this, 'GET', progPath('/prog/monitors/{monitor_id}/events', { monitor_id: monitor.monitor_id }))) as { events: MonitorEvent[] }).events,
      fresh: () => ({ seen: [], down: null }),
      compare: (previous, events) => newMonitorAlerts(previous, events, wanted),
      toItem: monitorItem,
      kept: { states: state.monitors, newestCreatedAt: state.newestMonitorCreatedAt },
    },
    manual,
  );
  if (!manual) {
    state.monitors = result.states;
    state.newestMonitorCreatedAt = result.newestCreatedAt;
  }
  return result;
}
