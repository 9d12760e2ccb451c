import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { progPath } from '../../../sdk/src/core';
import type { Monitor, MonitorEvent } from '../../../../shared/src/notifications/monitor-types';
import { cronbeamApiRequest, cronbeamPing } from '../shared/api';
import { listMonitors, resolveMonitor, resolveMonitorId } from '../shared/monitors';
import { limitResults, statusFilter } from './list-options';

/** The body PUT /prog/monitors/{id} takes: it replaces the whole definition. */
type MonitorDefinition = Pick<Monitor, 'name' | 'period_seconds' | 'cron_expression' | 'time_zone' | 'grace_seconds' | 'channel_ids'>;

/** The node's fields for a monitor definition, as the Update collection holds them. */
interface MonitorFields {
  name?: string;
  periodSeconds?: number;
  cronExpression?: string;
  timeZone?: string;
  graceSeconds?: number;
}

const definitionOf = (monitor: Monitor): MonitorDefinition => ({
  name: monitor.name,
  period_seconds: monitor.period_seconds,
  cron_expression: monitor.cron_expression,
  time_zone: monitor.time_zone,
  grace_seconds: monitor.grace_seconds,
  channel_ids: monitor.channel_ids,
});

/**
 * The definition after the node's fields are applied. A monitor has a period
 * or a cron expression: giving one drops the other (and a period drops the
 * cron expression's time zone). Both given are sent as given, and the API
 * names the conflict.
 */
function applyFields(current: MonitorDefinition, fields: MonitorFields): MonitorDefinition {
  const next = { ...current };
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.graceSeconds !== undefined) next.grace_seconds = fields.graceSeconds;
  if (fields.cronExpression !== undefined) {
    next.cron_expression = fields.cronExpression;
    next.period_seconds = null;
  }
  if (fields.periodSeconds !== undefined) {
    next.period_seconds = fields.periodSeconds;
    if (fields.cronExpression === undefined) {
      next.cron_expression = null;
      next.time_zone = 'UTC';
    }
  }
  if (fields.timeZone !== undefined) next.time_zone = fields.timeZone;
  return next;
}

/** Runs one Monitor operation for one input item. */
export async function runMonitorOperation(this: IExecuteFunctions, operation: string, i: number): Promise<IDataObject | IDataObject[]> {
  const request = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: IDataObject) =>
    cronbeamApiRequest.call(this, method, path, { body, itemIndex: i }) as Promise<T>;

  switch (operation) {
    case 'create': {
      const cron = this.getNodeParameter('scheduleType', i) === 'cron';
      const { graceSeconds } = this.getNodeParameter('additionalFields', i, {}) as MonitorFields;
      // Left out when not set: the API's default applies.
      const definition: IDataObject = {
        name: this.getNodeParameter('name', i) as string,
        ...(graceSeconds === undefined ? {} : { grace_seconds: graceSeconds }),
        ...(cron
          ? { cron_expression: this.getNodeParameter('cronExpression', i) as string, time_zone: this.getNodeParameter('timeZone', i, 'UTC') as string }
          : { period_seconds: this.getNodeParameter('periodSeconds', i) as number }),
      };
      return await request<IDataObject>('POST', '/prog/monitors', definition);
    }
    case 'get':
      return (await resolveMonitor.call(this, i)) as unknown as IDataObject;
    case 'getAll': {
      const wanted = statusFilter(this, i);
      const monitors = (await listMonitors.call(this, i)).filter((monitor) => !wanted.length || wanted.includes(monitor.status));
      return limitResults(this, monitors, i) as unknown as IDataObject[];
    }
    case 'getEvents': {
      const monitorId = await resolveMonitorId.call(this, i);
      const { events } = await request<{ events: MonitorEvent[] }>('GET', progPath('/prog/monitors/{monitor_id}/events', { monitor_id: monitorId }));
      return limitResults(this, events, i).map((event) => ({ monitor_id: monitorId, ...event }));
    }
    case 'update': {
      const fields = this.getNodeParameter('updateFields', i, {}) as MonitorFields;
      if (!Object.values(fields).some((value) => value !== undefined)) throw new NodeOperationError(this.getNode(), 'Add at least one field to update', { itemIndex: i });
      const monitor = await resolveMonitor.call(this, i);
      return await request<IDataObject>('PUT', progPath('/prog/monitors/{monitor_id}', { monitor_id: monitor.monitor_id }), applyFields(definitionOf(monitor), fields) as unknown as IDataObject);
    }
    case 'delete': {
      const monitorId = await resolveMonitorId.call(this, i);
      const answer = await request<{ message: string }>('DELETE', progPath('/prog/monitors/{monitor_id}', { monitor_id: monitorId }));
      return { monitor_id: monitorId, deleted: true, message: answer.message };
    }
    case 'pause':
      return await request<IDataObject>('POST', progPath('/prog/monitors/{monitor_id}/pause', { monitor_id: await resolveMonitorId.call(this, i) }));
    case 'resume':
      return await request<IDataObject>('POST', progPath('/prog/monitors/{monitor_id}/resume', { monitor_id: await resolveMonitorId.call(this, i) }));
    case 'ping': {
      const monitor = await resolveMonitor.call(this, i);
      const kind = this.getNodeParameter('pingKind', i, 'success') as 'success' | 'start' | 'fail';
      const answer = await cronbeamPing.call(this, `${new URL(monitor.ping_url).pathname}${kind === 'success' ? '' : `/${kind}`}`, i);
      return { monitor_id: monitor.monitor_id, name: monitor.name, kind, message: answer.message };
    }
  }
  throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known for the resource "monitor"`, { itemIndex: i });
}
