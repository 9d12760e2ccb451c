import { unwrap, type CronbeamClient, type Job, type JobDefinition, type Monitor, type MonitorDefinition } from '@cronbeam/sdk';
import { changedFields, definitionOfJob, definitionOfMonitor, type DesiredState } from './desired-state';

export type ChangeAction = 'create' | 'update' | 'delete';

export interface PlannedChange {
  action: ChangeAction;
  kind: 'job' | 'monitor';
  name: string;
  /** The existing job's or monitor's id (update, delete). */
  id?: string;
  /** The fields an update changes. */
  fields?: string[];
  definition?: JobDefinition | MonitorDefinition;
}

export interface Plan {
  changes: PlannedChange[];
  /** Jobs and monitors the file does not declare, kept because --prune was not given. */
  unmanaged: Array<{ kind: 'job' | 'monitor'; name: string; id: string }>;
}

interface Existing<Definition> {
  id: string;
  name: string;
  definition: Definition;
}

/**
 * The changes that turn the existing items into the declared ones: matched by
 * name, the first existing one per name is created if missing or updated if
 * any field differs; every other existing item (undeclared, or a duplicate
 * name) is deleted with prune and reported as unmanaged without.
 */
function planKind<Definition extends JobDefinition | MonitorDefinition>(kind: 'job' | 'monitor', existing: Existing<Definition>[], desired: Definition[], prune: boolean, fold: (name: string) => string, plan: Plan): void {
  const matched = new Set<string>();
  for (const definition of desired) {
    const current = existing.find((item) => !matched.has(item.id) && fold(item.name) === fold(definition.name));
    if (!current) {
      plan.changes.push({ action: 'create', kind, name: definition.name, definition });
      continue;
    }
    matched.add(current.id);
    const fields = changedFields(current.definition, definition);
    if (fields.length) plan.changes.push({ action: 'update', kind, name: definition.name, id: current.id, fields, definition });
  }
  for (const item of existing.filter((candidate) => !matched.has(candidate.id))) {
    if (prune) plan.changes.push({ action: 'delete', kind, name: item.name, id: item.id });
    else plan.unmanaged.push({ kind, name: item.name, id: item.id });
  }
}

export async function makePlan(client: CronbeamClient, desired: DesiredState, prune: boolean): Promise<Plan> {
  const [jobs, monitors] = await Promise.all([unwrap(client.GET('/prog/jobs')), unwrap(client.GET('/prog/monitors'))]);
  const plan: Plan = { changes: [], unmanaged: [] };
  const existingJobs = jobs.map((job: Job) => ({ id: job.job_id, name: job.name, definition: definitionOfJob(job) }));
  const existingMonitors = monitors.map((monitor: Monitor) => ({ id: monitor.monitor_id, name: monitor.name, definition: definitionOfMonitor(monitor) }));
  // Job names are unique per user without regard to case, so a job differing only in case is the same job.
  planKind('job', existingJobs, desired.jobs, prune, (name) => name.toLowerCase(), plan);
  planKind('monitor', existingMonitors, desired.monitors, prune, (name) => name, plan);
  return plan;
}

/** Deletions first (they free the plan's job quota and names), then updates, then creations. */
const ORDER: Record<ChangeAction, number> = { delete: 0, update: 1, create: 2 };

/** Carries out a plan; each change is reported as it is made, so a failure leaves a clear record of what was done. */
export async function applyPlan(client: CronbeamClient, plan: Plan, onApplied: (change: PlannedChange) => void): Promise<void> {
  for (const change of [...plan.changes].sort((a, b) => ORDER[a.action] - ORDER[b.action])) {
    const id = change.id ?? '';
    if (change.kind === 'job') {
      const body = change.definition as JobDefinition;
      if (change.action === 'create') await unwrap(client.POST('/prog/jobs', { body }));
      else if (change.action === 'update') await unwrap(client.PUT('/prog/jobs/{job_id}', { params: { path: { job_id: id } }, body }));
      else await unwrap(client.DELETE('/prog/jobs/{job_id}', { params: { path: { job_id: id } } }));
    } else {
      const body = change.definition as MonitorDefinition;
      if (change.action === 'create') await unwrap(client.POST('/prog/monitors', { body }));
      else if (change.action === 'update') await unwrap(client.PUT('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: id } }, body }));
      else await unwrap(client.DELETE('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: id } } }));
    }
    onApplied(change);
  }
}

const SYMBOL: Record<ChangeAction, string> = { create: '+', update: '~', delete: '-' };

/** The plan as people read it: one line per change, a summary last. */
export function describePlan(plan: Plan): string[] {
  const count = (action: ChangeAction) => plan.changes.filter((change) => change.action === action).length;
  const lines = plan.changes.map((change) => `  ${SYMBOL[change.action]} ${change.kind} ${change.name}${change.fields ? ` (${change.fields.join(', ')})` : ''}`);
  const summary = plan.changes.length ? `Plan: ${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete.` : 'No changes: the account matches the file.';
  const kept = plan.unmanaged.length ? [`${plan.unmanaged.length} not in the file, kept (--prune deletes them): ${plan.unmanaged.map((item) => `${item.kind} ${item.name}`).join(', ')}`] : [];
  return [...lines, summary, ...kept];
}
