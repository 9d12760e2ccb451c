import {
  NodeOperationError,
  type IExecuteFunctions,
  type ILoadOptionsFunctions,
  type INodeListSearchResult,
  type INodePropertyOptions,
} from 'n8n-workflow';
import { progPath } from '../../../sdk/src/core';
import { MONITOR_LIMITS, type Monitor } from '../../../../shared/src/notifications/monitor-types';
import { cronbeamApiRequest, type CronbeamContext } from './api';
import { accountItemLocator, locatorValue, pickerOptions, searchResults } from './locators';

/** The heartbeat monitor an operation acts on: picked from the list, typed by name, or by id. */
export const monitorLocator = accountItemLocator({
  noun: 'Monitor',
  name: 'monitorId',
  searchListMethod: 'searchMonitors',
  namePlaceholder: 'e.g. nightly backup',
  nameHint: `The monitor's name (ignoring case), at most ${MONITOR_LIMITS.nameMaxLength} characters`,
});

export async function listMonitors(this: CronbeamContext, itemIndex?: number): Promise<Monitor[]> {
  return (await cronbeamApiRequest.call(this, 'GET', '/prog/monitors', { itemIndex })) as Monitor[];
}

/** The monitor list behind the "From List" mode, filtered by the text typed into its search box. */
export async function searchMonitors(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
  return searchResults(await listMonitors.call(this), filter, (monitor) => monitor.monitor_id);
}

/** The trigger's monitor picker: every monitor by name, with its schedule as the hint. */
export async function getMonitorOptions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  return pickerOptions(
    await listMonitors.call(this),
    (monitor) => monitor.monitor_id,
    (monitor) => (monitor.cron_expression ? `${monitor.cron_expression} (${monitor.time_zone})` : `every ${monitor.period_seconds} s`),
  );
}

/**
 * The monitor the locator names: its id (without reading it) when given by
 * id or picked from the list, the monitor itself when given by name (found in
 * the list). Monitor names are not unique: a name several monitors share is
 * refused, listing their ids.
 */
async function locateMonitor(this: IExecuteFunctions, itemIndex: number): Promise<string | Monitor> {
  const { byName, value } = locatorValue(this, 'monitorId', 'Monitor', itemIndex);
  if (!byName) return value;
  const matches = (await listMonitors.call(this, itemIndex)).filter((monitor) => monitor.name.toLowerCase() === value.toLowerCase());
  if (matches.length === 0) throw new NodeOperationError(this.getNode(), `No monitor named '${value}'`, { itemIndex });
  if (matches.length > 1) {
    throw new NodeOperationError(this.getNode(), `Several monitors are named '${value}': ${matches.map((m) => m.monitor_id).join(', ')}. Give the monitor ID instead.`, {
      itemIndex,
    });
  }
  return matches[0];
}

/** The id of the monitor the locator names, for operations that need nothing else of it. */
export async function resolveMonitorId(this: IExecuteFunctions, itemIndex: number): Promise<string> {
  const located = await locateMonitor.call(this, itemIndex);
  return typeof located === 'string' ? located : located.monitor_id;
}

/** The monitor the locator names, as the API holds it now. */
export async function resolveMonitor(this: IExecuteFunctions, itemIndex: number): Promise<Monitor> {
  const located = await locateMonitor.call(this, itemIndex);
  return typeof located === 'string' ? ((await cronbeamApiRequest.call(this, 'GET', progPath('/prog/monitors/{monitor_id}', { monitor_id: located }), { itemIndex })) as Monitor) : located;
}
