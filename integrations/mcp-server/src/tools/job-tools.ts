import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { JOB_LOGS_LIMITS } from '@cronbeam/shared/jobs/job-rules';
import { JOB_STATUSES, type Job } from '@cronbeam/shared/jobs/job-types';
import type { ProgClient } from '../api/prog-client';
import { findJob } from './job-lookup';
import { jobChangeFields, jobDefinitionFields, jobOutput, jobReference, logEntryOutput } from './job-schemas';
import { guarded, toolResult } from './tool-results';

const when = (iso: string | null) => iso ?? 'none';
const jobLine = (job: Job) => `${job.name} (${job.job_id}): ${job.status}, ${job.method} ${job.url}, '${job.cron_expression}', next run ${when(job.next_run_at)}`;

/** Tools for every operation of the /prog API. */
export function registerJobTools(server: McpServer, client: ProgClient): void {
  server.registerTool(
    'list_jobs',
    {
      title: 'List jobs',
      description: 'Lists the cron jobs of the account the API key belongs to (oldest first), optionally only those with one status, a tag, or whose name contains some text.',
      inputSchema: {
        status: z.enum(JOB_STATUSES).optional().describe('Only jobs with this status.'),
        tag: z.string().optional().describe('Only jobs carrying this tag (ignoring case).'),
        name_contains: z.string().optional().describe('Only jobs whose name contains this text (ignoring case).'),
      },
      outputSchema: { jobs: z.array(jobOutput), count: z.number() },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ status, tag, name_contains }) =>
      guarded(async () => {
        const needle = name_contains?.toLowerCase();
        const wanted = tag?.trim().toLowerCase();
        const jobs = (await client.listJobs()).filter(
          (job) => (!status || job.status === status) && (!wanted || job.tags.includes(wanted)) && (!needle || job.name.toLowerCase().includes(needle)),
        );
        const summary = jobs.length === 0 ? 'No jobs match.' : `${jobs.length} job(s):\n${jobs.map(jobLine).join('\n')}`;
        return toolResult(summary, { jobs, count: jobs.length });
      }),
  );

  server.registerTool(
    'get_job',
    {
      title: 'Get a job',
      description: 'Shows one job: its request, schedule, status, next and last run.',
      inputSchema: { job: jobReference },
      outputSchema: jobOutput.shape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ job }) =>
      guarded(async () => {
        const found = await findJob(client, job);
        return toolResult(jobLine(found), found);
      }),
  );

  server.registerTool(
    'create_job',
    {
      title: 'Create a job',
      description:
        'Creates a job that sends an HTTP request on a schedule: a cron expression read in its time_zone (UTC by default, 6 fields for seconds), an interval (every_seconds) or one instant (run_at); optionally bounded by starts_at/ends_at, with jitter, overlap and catch-up policies, response rules, a timeout and auto-pause. It starts as pending with next_run_at at its first due time. Fails with the plan\'s job limit (403) or field errors (422) that name the field to fix.',
      // Strict, as the API is: an unknown field is an error rather than silently dropped.
      inputSchema: z.strictObject(jobDefinitionFields),
      outputSchema: jobOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (definition) =>
      guarded(async () => {
        const created = await client.createJob(definition);
        return toolResult(`Created ${jobLine(created)}`, created);
      }),
  );

  server.registerTool(
    'update_job',
    {
      title: 'Update a job',
      description:
        'Changes a job: give only the fields to change, the others keep their current values (headers, when given, replace all headers). The next run is recomputed unless the job is paused. Also used to rename a job.',
      inputSchema: z.strictObject({ job: jobReference, ...jobChangeFields }),
      outputSchema: jobOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ job, ...changes }) =>
      guarded(async () => {
        const current = await findJob(client, job);
        const given: Record<string, unknown> = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
        // A job has one schedule form: the one given replaces the others (from cron to an interval, say).
        const forms = ['cron_expression', 'every_seconds', 'run_at'] as const;
        if (forms.some((form) => given[form] !== undefined && given[form] !== null)) for (const form of forms) given[form] ??= null;
        // PUT replaces the whole definition: the job as answered goes back with the changes (its read-only fields are ignored).
        const updated = await client.replaceJob(current.job_id, { ...current, ...given });
        return toolResult(`Updated ${jobLine(updated)}`, updated);
      }),
  );

  server.registerTool(
    'delete_job',
    {
      title: 'Delete a job',
      description: 'Deletes a job and its execution logs permanently. Confirm with the user first; pause_job keeps the job instead.',
      inputSchema: { job: jobReference },
      outputSchema: { deleted: z.boolean(), job_id: z.string(), name: z.string(), message: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ job }) =>
      guarded(async () => {
        const found = await findJob(client, job);
        const answer = await client.deleteJob(found.job_id);
        return toolResult(`Deleted ${found.name} (${found.job_id}).`, { deleted: true, job_id: found.job_id, name: found.name, message: answer.message });
      }),
  );

  server.registerTool(
    'pause_job',
    {
      title: 'Pause a job',
      description: 'Stops a job from running on its schedule; its configuration and logs stay. resume_job starts it again.',
      inputSchema: { job: jobReference },
      outputSchema: jobOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ job }) =>
      guarded(async () => {
        const paused = await client.pauseJob((await findJob(client, job)).job_id);
        return toolResult(`Paused ${jobLine(paused)}`, paused);
      }),
  );

  server.registerTool(
    'resume_job',
    {
      title: 'Resume a job',
      description: 'Puts a paused (or quota-stopped) job back on its schedule; next_run_at becomes the next cron instant from now.',
      inputSchema: { job: jobReference },
      outputSchema: jobOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ job }) =>
      guarded(async () => {
        const resumed = await client.resumeJob((await findJob(client, job)).job_id);
        return toolResult(`Resumed ${jobLine(resumed)}`, resumed);
      }),
  );

  server.registerTool(
    'run_job_now',
    {
      title: 'Run a job now',
      description:
        "Sends the job's request once, immediately, and waits for the outcome (status, response code, duration, error). Logged as a manual run and counted in the monthly execution quota.",
      inputSchema: { job: jobReference },
      outputSchema: { job_id: z.string(), name: z.string(), execution: logEntryOutput },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ job }) =>
      guarded(async () => {
        const found = await findJob(client, job);
        const execution = await client.runJobNow(found.job_id);
        const outcome = `${execution.status}${execution.response_code !== null ? ` (HTTP ${execution.response_code})` : ''}${execution.error_message ? `: ${execution.error_message}` : ''}`;
        return toolResult(`Ran ${found.name} now: ${outcome}.`, { job_id: found.job_id, name: found.name, execution });
      }),
  );

  server.registerTool(
    'get_job_logs',
    {
      title: 'Get execution logs',
      description: `The latest finished executions of a job (at most ${JOB_LOGS_LIMITS.default}), newest first: outcome, response code and body excerpt, duration, error message.`,
      inputSchema: {
        job: jobReference,
        limit: z.number().int().min(1).max(JOB_LOGS_LIMITS.default).optional().describe(`How many executions to return (1-${JOB_LOGS_LIMITS.default}, default all available).`),
        status: z.enum(['success', 'failed', 'skipped', 'missed']).optional().describe('Only executions with this outcome.'),
      },
      outputSchema: { job_id: z.string(), name: z.string(), logs: z.array(logEntryOutput), count: z.number() },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ job, limit, status }) =>
      guarded(async () => {
        const found = await findJob(client, job);
        const logs = (await client.jobLogs(found.job_id)).filter((entry) => !status || entry.status === status).slice(0, limit ?? JOB_LOGS_LIMITS.default);
        const lines = logs.map((e) => `${e.executed_at ?? e.scheduled_for} ${e.trigger} #${e.attempt}: ${e.status}${e.response_code !== null ? ` ${e.response_code}` : ''}${e.error_message ? ` - ${e.error_message}` : ''}`);
        const summary = logs.length === 0 ? `No executions logged for ${found.name}${status ? ` with status ${status}` : ''}.` : `${logs.length} execution(s) of ${found.name}:\n${lines.join('\n')}`;
        return toolResult(summary, { job_id: found.job_id, name: found.name, logs, count: logs.length });
      }),
  );
}
