import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ListResourcesResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { CronbeamError } from './api/cronbeam-errors';
import type { ProgClient } from './api/prog-client';
import { findJob } from './tools/job-lookup';

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

export const JOBS_URI = 'cronbeam://jobs';
export const jobUri = (jobId: string) => `cronbeam://jobs/${jobId}`;
export const jobLogsUri = (jobId: string) => `cronbeam://jobs/${jobId}/logs`;

const json = (uri: URL, data: unknown): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }],
});

/** API failures as protocol errors with the same message a tool would give. */
async function reading(body: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof CronbeamError) throw new McpError(error.kind === 'not_found' ? RESOURCE_NOT_FOUND : ErrorCode.InternalError, error.message, error.toJSON());
    throw error;
  }
}

/**
 * Listing resources must not fail because the API cannot be reached (clients
 * list them on connect and may give up on the whole server); the templates
 * then list nothing and reading cronbeam://jobs reports the problem.
 */
async function listedJobs(client: ProgClient, entry: (job: { job_id: string; name: string }) => ListResourcesResult['resources'][number]): Promise<ListResourcesResult> {
  try {
    return { resources: (await client.listJobs()).map(entry) };
  } catch {
    return { resources: [] };
  }
}

const variable = (value: string | string[]) => decodeURIComponent(Array.isArray(value) ? value[0] : value);

/** Each job and its recent logs as resources an assistant can attach or read. */
export function registerResources(server: McpServer, client: ProgClient): void {
  server.registerResource(
    'jobs',
    JOBS_URI,
    { title: 'All jobs', description: 'Every job of the API key\'s account, as JSON.', mimeType: 'application/json' },
    (uri) => reading(async () => json(uri, { jobs: await client.listJobs() })),
  );

  server.registerResource(
    'job',
    new ResourceTemplate('cronbeam://jobs/{job_id}', {
      list: () => listedJobs(client, (job) => ({ uri: jobUri(job.job_id), name: `job ${job.name}`, title: `Job ${job.name}`, mimeType: 'application/json' })),
    }),
    { title: 'Job', description: 'One job (request, schedule, status, next and last run), as JSON.', mimeType: 'application/json' },
    (uri, { job_id }) => reading(async () => json(uri, await findJob(client, variable(job_id)))),
  );

  server.registerResource(
    'job-logs',
    new ResourceTemplate('cronbeam://jobs/{job_id}/logs', {
      list: () =>
        listedJobs(client, (job) => ({ uri: jobLogsUri(job.job_id), name: `logs ${job.name}`, title: `Recent executions of ${job.name}`, mimeType: 'application/json' })),
    }),
    { title: 'Job logs', description: 'The latest executions of one job, newest first, as JSON.', mimeType: 'application/json' },
    (uri, { job_id }) =>
      reading(async () => {
        const job = await findJob(client, variable(job_id));
        return json(uri, { job_id: job.job_id, name: job.name, logs: await client.jobLogs(job.job_id) });
      }),
  );
}
