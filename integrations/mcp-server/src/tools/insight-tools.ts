import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { parseCron } from '@cronbeam/shared/cron';
import { JOB_LOGS_LIMITS } from '@cronbeam/shared/jobs/job-rules';
import type { Job, JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import { PLAN_IDS, PLAN_LIMITS } from '@cronbeam/shared/plans';
import type { ProgClient } from '../api/prog-client';
import { countRuns } from './execution-count';
import { guarded, toolResult, ToolUsageError } from './tool-results';

/** Log requests in flight at once: a full account stays well inside the per-key rate limit's burst. */
const LOG_FETCH_CONCURRENCY = 4;
const MAX_ESTIMATE_DAYS = 366;

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface FailingJob {
  job_id: string;
  name: string;
  url: string;
  status: Job['status'];
  consecutive_failures: number;
  last_error: string | null;
  last_response_code: number | null;
  last_failed_at: string | null;
  last_success_at: string | null;
}

/** Failures since the newest success; skipped and missed runs (quota, outage) neither break nor extend the streak. */
function failureStreak(job: Job, logs: JobLogEntry[]): FailingJob {
  let streak = 0;
  let newestFailure: JobLogEntry | null = null;
  for (const entry of logs) {
    if (entry.status === 'success') break;
    if (entry.status !== 'failed') continue;
    streak += 1;
    newestFailure ??= entry;
  }
  const lastSuccess = logs.find((entry) => entry.status === 'success') ?? null;
  return {
    job_id: job.job_id,
    name: job.name,
    url: job.url,
    status: job.status,
    consecutive_failures: streak,
    last_error: newestFailure?.error_message ?? null,
    last_response_code: newestFailure?.response_code ?? null,
    last_failed_at: newestFailure ? (newestFailure.executed_at ?? newestFailure.scheduled_for) : null,
    last_success_at: lastSuccess ? (lastSuccess.executed_at ?? lastSuccess.scheduled_for) : null,
  };
}

const startOfNextUtcMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

/** Tools that combine several API calls (and the shared cron code) into one answer. */
export function registerInsightTools(server: McpServer, client: ProgClient): void {
  server.registerTool(
    'find_failing_jobs',
    {
      title: 'Find failing jobs',
      description: `Finds jobs whose latest executions failed (looking at each job's last ${JOB_LOGS_LIMITS.default} executions), with the number of failures in a row and the last error. Most failures in a row first.`,
      inputSchema: {
        min_consecutive_failures: z.number().int().min(1).max(JOB_LOGS_LIMITS.default).default(1).describe('Report jobs with at least this many failures in a row (default 1).'),
      },
      outputSchema: {
        failing: z.array(
          z.object({
            job_id: z.string(),
            name: z.string(),
            url: z.string(),
            status: z.string(),
            consecutive_failures: z.number(),
            last_error: z.string().nullable(),
            last_response_code: z.number().nullable(),
            last_failed_at: z.string().nullable(),
            last_success_at: z.string().nullable(),
          }),
        ),
        jobs_checked: z.number(),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ min_consecutive_failures }) =>
      guarded(async () => {
        const jobs = (await client.listJobs()).filter((job) => job.last_run_at !== null);
        const streaks = await mapLimited(jobs, LOG_FETCH_CONCURRENCY, async (job) => failureStreak(job, await client.jobLogs(job.job_id)));
        const failing = streaks.filter((s) => s.consecutive_failures >= min_consecutive_failures).sort((a, b) => b.consecutive_failures - a.consecutive_failures);
        const summary =
          failing.length === 0
            ? `No failing jobs (${jobs.length} job(s) with executions checked).`
            : `${failing.length} failing job(s):\n${failing.map((f) => `${f.name}: ${f.consecutive_failures} failure(s) in a row, last ${f.last_response_code ?? '-'} ${f.last_error ?? ''}`.trim()).join('\n')}`;
        return toolResult(summary, { failing, jobs_checked: jobs.length });
      }),
  );

  server.registerTool(
    'estimate_executions',
    {
      title: 'Estimate scheduled executions',
      description:
        "Counts how many times each active job (not paused) will run from now (or `from`) until the end of that UTC month (or `until`), with the scheduler's cron rules, and compares the total with each plan's monthly execution quota. Retries and manual runs are not included.",
      inputSchema: {
        from: z.iso.datetime({ offset: true, error: 'from must be an ISO 8601 date-time' }).optional().describe('Start of the window (ISO 8601); default now.'),
        until: z.iso.datetime({ offset: true, error: 'until must be an ISO 8601 date-time' }).optional().describe('End of the window (ISO 8601); default the end of the current UTC month.'),
      },
      outputSchema: {
        from: z.string(),
        until: z.string(),
        total: z.number(),
        jobs: z.array(z.object({ job_id: z.string(), name: z.string(), cron_expression: z.string(), status: z.string(), executions: z.number() })),
        plan_quotas: z.record(z.string(), z.number()),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ from, until }) =>
      guarded(async () => {
        const start = from ? new Date(from) : new Date();
        // Inclusive end: the last millisecond before the next month begins.
        const end = until ? new Date(until) : new Date(startOfNextUtcMonth(start).getTime() - 1);
        if (end.getTime() <= start.getTime()) throw new ToolUsageError('until must be after from.');
        if (end.getTime() - start.getTime() > MAX_ESTIMATE_DAYS * 86_400_000) throw new ToolUsageError(`The window may span at most ${MAX_ESTIMATE_DAYS} days.`);
        const jobs = (await client.listJobs()).filter((job) => job.status !== 'paused');
        const counted = jobs.map((job) => {
          const parsed = parseCron(job.cron_expression);
          return {
            job_id: job.job_id,
            name: job.name,
            cron_expression: job.cron_expression,
            status: job.status,
            executions: parsed.ok ? countRuns(parsed.cron, start, end) : 0,
          };
        });
        const total = counted.reduce((sum, job) => sum + job.executions, 0);
        const plan_quotas = Object.fromEntries(PLAN_IDS.filter((id) => id !== 'unlimited').map((id) => [id, PLAN_LIMITS[id].executionsPerMonth]));
        const fits = Object.entries(plan_quotas)
          .map(([plan, quota]) => `${plan} ${quota}${total <= quota ? '' : ' (exceeded)'}`)
          .join(', ');
        return toolResult(`${total} scheduled execution(s) from ${start.toISOString()} to ${end.toISOString()} across ${counted.length} active job(s). Monthly quotas: ${fits}.`, {
          from: start.toISOString(),
          until: end.toISOString(),
          total,
          jobs: counted.sort((a, b) => b.executions - a.executions),
          plan_quotas,
        });
      }),
  );

  server.registerTool(
    'check_connection',
    {
      title: 'Check the Cronbeam connection',
      description: 'Checks that Cronbeam answers at CRONBEAM_URL and that CRONBEAM_API_KEY / CRONBEAM_USER_ID are accepted. Use it first when other tools fail.',
      inputSchema: {},
      outputSchema: { url: z.string(), reachable: z.boolean(), authenticated: z.boolean(), job_count: z.number(), user_id_configured: z.boolean() },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        await client.ping();
        const jobs = await client.listJobs();
        return toolResult(`Connected to ${client.baseUrl}; the API key is accepted and its account has ${jobs.length} job(s).`, {
          url: client.baseUrl,
          reachable: true,
          authenticated: true,
          job_count: jobs.length,
          user_id_configured: client.hasUserId,
        });
      }),
  );
}
