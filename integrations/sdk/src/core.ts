// The SDK without its HTTP client: the document's types, path building and the
// API's error details. For clients that must send through a transport of their
// own (the n8n node: n8n's request helpers carry the credential, proxies and
// n8n's error handling), and whose build has no fetch types.
import type { components, operations, paths } from './generated/prog-api';

export { CronbeamApiError, CronbeamConnectionError, describeDetail, detailOf, isDetailWithFigures, isIssueList, type ApiDetail, type DetailWithFigures, type ValidationIssue } from './errors';
export { progPath, type PathPlaceholders, type ProgPath } from './paths';
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
