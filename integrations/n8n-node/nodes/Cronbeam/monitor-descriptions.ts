import type { INodeProperties } from 'n8n-workflow';
import { MONITOR_LIMITS, MONITOR_STATUSES } from '../../../../shared/src/notifications/monitor-types';
import { monitorLocator } from '../shared/monitors';
import { getManyFields } from './list-options';

const forMonitor = (...operation: string[]) => ({ show: { resource: ['monitor'], operation } });

export const monitorOperations: INodeProperties = {
  displayName: 'Operation',
  name: 'operation',
  type: 'options',
  noDataExpression: true,
  displayOptions: { show: { resource: ['monitor'] } },
  options: [
    { name: 'Create', value: 'create', action: 'Create a monitor', description: 'Get a ping URL that alerts you when a ping is late' },
    { name: 'Delete', value: 'delete', action: 'Delete a monitor', description: 'Delete a monitor and its events; its ping URL stops working' },
    { name: 'Get', value: 'get', action: 'Get a monitor' },
    { name: 'Get Events', value: 'getEvents', action: 'Get the latest events of a monitor', description: 'Its latest pings and missed pings, newest first' },
    { name: 'Get Many', value: 'getAll', action: 'Get many monitors' },
    { name: 'Pause', value: 'pause', action: 'Pause a monitor', description: 'No alerts while paused; pings are still recorded' },
    { name: 'Ping', value: 'ping', action: 'Ping a monitor', description: 'Report that the watched task started, succeeded or failed' },
    { name: 'Resume', value: 'resume', action: 'Resume a monitor', description: 'Wait for the next ping, as a new monitor does' },
    { name: 'Update', value: 'update', action: 'Update a monitor', description: 'Change some fields of a monitor; the others keep their values' },
  ],
  default: 'create',
};

const periodField: INodeProperties = {
  displayName: 'Period (Seconds)',
  name: 'periodSeconds',
  type: 'number',
  typeOptions: { minValue: MONITOR_LIMITS.minPeriodSeconds, maxValue: MONITOR_LIMITS.maxPeriodSeconds },
  default: 3600,
  description: `Expect a ping every this many seconds (${MONITOR_LIMITS.minPeriodSeconds} to ${MONITOR_LIMITS.maxPeriodSeconds})`,
};

const cronField: INodeProperties = {
  displayName: 'Cron Expression',
  name: 'cronExpression',
  type: 'string',
  default: '',
  placeholder: '0 3 * * *',
  description: 'Expect a ping at each instant of this five-field expression, read in the Time Zone',
};

const timeZoneField: INodeProperties = {
  displayName: 'Time Zone',
  name: 'timeZone',
  type: 'string',
  default: 'UTC',
  placeholder: 'Europe/Berlin',
  description: 'IANA time zone the cron expression is read in (a period needs none)',
};

const graceField: INodeProperties = {
  displayName: 'Grace (Seconds)',
  name: 'graceSeconds',
  type: 'number',
  typeOptions: { minValue: 0, maxValue: MONITOR_LIMITS.maxGraceSeconds },
  default: 60,
  description: `How late a ping may be before the monitor goes down and you are alerted (0 to ${MONITOR_LIMITS.maxGraceSeconds})`,
};

const nameField: INodeProperties = {
  displayName: 'Name',
  name: 'name',
  type: 'string',
  default: '',
  placeholder: 'e.g. nightly backup',
  description: `1 to ${MONITOR_LIMITS.nameMaxLength} characters`,
};

export const monitorFields: INodeProperties[] = [
  { ...monitorLocator, displayOptions: forMonitor('get', 'getEvents', 'update', 'delete', 'pause', 'resume', 'ping') },

  { ...nameField, required: true, displayOptions: forMonitor('create') },
  {
    displayName: 'Schedule',
    name: 'scheduleType',
    type: 'options',
    options: [
      { name: 'Every N Seconds', value: 'period', description: 'A ping is expected a fixed time after the last one' },
      { name: 'Cron Expression', value: 'cron', description: 'A ping is expected at each instant of a cron expression' },
    ],
    default: 'period',
    displayOptions: forMonitor('create'),
  },
  { ...periodField, displayOptions: { show: { resource: ['monitor'], operation: ['create'], scheduleType: ['period'] } } },
  { ...cronField, required: true, displayOptions: { show: { resource: ['monitor'], operation: ['create'], scheduleType: ['cron'] } } },
  { ...timeZoneField, displayOptions: { show: { resource: ['monitor'], operation: ['create'], scheduleType: ['cron'] } } },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: forMonitor('create'),
    options: [graceField],
  },

  {
    displayName: 'Update Fields',
    name: 'updateFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: forMonitor('update'),
    options: [
      { ...cronField, description: `${cronField.description}. Replaces a period.` },
      graceField,
      nameField,
      { ...periodField, description: `${periodField.description}. Replaces a cron expression.` },
      timeZoneField,
    ],
  },

  {
    displayName: 'Ping',
    name: 'pingKind',
    type: 'options',
    options: [
      { name: 'Success', value: 'success', description: 'The task ran and succeeded: the monitor is up until the next ping is due' },
      { name: 'Start', value: 'start', description: 'The task started: the next success ping records how long it ran' },
      { name: 'Fail', value: 'fail', description: 'The task failed: the monitor goes down and you are alerted now' },
    ],
    default: 'success',
    displayOptions: forMonitor('ping'),
  },

  ...getManyFields({
    resource: 'monitor',
    operations: ['getAll', 'getEvents'],
    statuses: MONITOR_STATUSES.map((status) => ({ name: status, value: status })),
    statusDescription: 'Only monitors in one of these statuses (down: a ping was missed or a failure reported)',
  }),
];
