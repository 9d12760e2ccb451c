import type { components, operations, paths } from './generated/prog-api';

export { createCronbeamClient, normaliseBaseUrl, unwrap, type CronbeamClient, type CronbeamClientOptions } from './client';
export { CronbeamApiError, CronbeamConnectionError, describeDetail, type ApiDetail, type ValidationIssue } from './errors';
export { retryAfterMs, type RetryOptions } from './retry';
export type { components, operations, paths };

type Schemas = components['schemas'];
/** A job as the API returns it. */
export type Job = Schemas['Job'];
/** What creating or replacing a job sends. */
export type JobDefinition = Schemas['JobDefinition'];
export type JobLogEntry = Schemas['JobLogEntry'];
export type JobExport = Schemas['JobExport'];
/** A heartbeat monitor as the API returns it. */
export type Monitor = Schemas['Monitor'];
/** What creating or replacing a monitor sends. */
export type MonitorDefinition = Schemas['MonitorDefinition'];
export type MonitorEvent = Schemas['MonitorEvents']['events'][number];
