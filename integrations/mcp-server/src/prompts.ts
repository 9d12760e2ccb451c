import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeCron, nextRuns, parseCron } from '@cronbeam/shared/cron';
import { JOB_LIMITS } from '@cronbeam/shared/jobs/job-rules';
import { PLAN_IDS, PLAN_LIMITS } from '@cronbeam/shared/plans';

type Args = Record<string, string | undefined>;

interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  /** Argument name → description; names ending in '?' are optional. */
  args: Record<string, string>;
  render(args: Args): string;
}

const quotas = PLAN_IDS.filter((id) => id !== 'unlimited')
  .map((id) => `${id}: ${PLAN_LIMITS[id].maxJobs} jobs, ${PLAN_LIMITS[id].executionsPerMonth} executions a month`)
  .join('; ');

const RULES = `Cronbeam rules to respect: schedules are standard 5-field cron (no seconds, no L/W/#; day of week 0-6, Sunday 0), read in the job's time_zone (an IANA name such as Europe/Berlin; UTC when none is given); job names are unique per account, letters, digits, '-' and '_', at most ${JOB_LIMITS.nameMaxLength} characters; URLs must be public http(s) addresses (prefer https); plans: ${quotas}.`;

/** "09:00 UTC"-style guidance when an optional argument is missing. */
const orAsk = (value: string | undefined, what: string) => (value?.trim() ? value.trim() : `(not given: ask the user for ${what}, or propose a sensible default and confirm it)`);

/** A cron expression's meaning computed locally, so the prompt starts from facts. */
function cronFacts(expression: string): string {
  const parsed = parseCron(expression);
  if (!parsed.ok) return `'${expression}' is NOT a valid Cronbeam schedule: ${parsed.error}.`;
  const runs = nextRuns(parsed.cron.normalized, 5).map((d) => d.toISOString());
  return `'${parsed.cron.normalized}' means: ${describeCron(expression)}. Next runs if read in UTC: ${runs.join(', ')} (a job's time_zone shifts them).`;
}

export const PROMPTS: PromptDefinition[] = [
  {
    name: 'setup_health_check',
    title: 'Set up a health check for a URL',
    description: 'Creates a job that calls a URL on a schedule and alerts by email when it fails.',
    args: { url: 'The URL to check', interval_minutes: 'How often to check, in minutes (default 5)?', name: 'Job name (default derived from the host)?' },
    render: (a) =>
      `Set up a Cronbeam health check for ${a.url}.
1. Pick the schedule: every ${a.interval_minutes?.trim() || '5'} minute(s); turn it into a cron expression and confirm it with validate_cron.
2. Name the job ${a.name?.trim() ? `'${a.name.trim()}'` : 'after the URL\'s host (e.g. health-example-com)'}; call list_jobs first so the name is not taken.
3. Call create_job with method GET, the URL, that schedule and notify_on_failure true.
4. Call run_job_now once and report the outcome (status, response code, duration). If it failed, explain the likely cause.
5. Tell the user the next run time and how many executions a month this uses (estimate_executions).
${RULES}`,
  },
  {
    name: 'debug_failing_job',
    title: 'Debug a failing job',
    description: "Reads a job's definition and recent logs, finds the cause of its failures and proposes a fix.",
    args: { job: 'Job id or name', symptom: 'What the user noticed (optional)?' },
    render: (a) =>
      `Debug the Cronbeam job '${a.job}'.${a.symptom?.trim() ? ` The user reports: ${a.symptom.trim()}.` : ''}
1. get_job for its definition, then get_job_logs for its recent executions (also readable as the resource cronbeam://jobs/{job_id}/logs).
2. Group the failures by error message and response code; note when failures started and whether any run succeeded since.
3. Diagnose: timeouts (slow target), 4xx (URL, method, headers or auth token wrong), 5xx (target broken), DNS/TLS errors, refused private addresses.
4. Propose a concrete fix (update_job with the changed fields) and ask before applying it; after a change, run_job_now to verify.
Quote the exact error messages you rely on.`,
  },
  {
    name: 'triage_failures',
    title: 'Triage all failing jobs',
    description: 'Lists every failing job, ranks them by impact and suggests next steps.',
    args: { min_consecutive_failures: 'Only jobs with at least this many failures in a row (default 1)?' },
    render: (a) =>
      `Triage the failing Cronbeam jobs of this account.
1. Call find_failing_jobs with min_consecutive_failures ${a.min_consecutive_failures?.trim() || '1'}.
2. For the worst three, read get_job_logs and classify the cause.
3. Answer with a table: job, failures in a row, last error, probable cause, suggested action (fix, pause_job, or delete after confirmation).
Do not change anything without the user's confirmation.`,
  },
  {
    name: 'audit_schedules',
    title: 'Audit schedules for overlap and quota use',
    description: 'Reviews all schedules: jobs firing at the same instant, bursty minutes, and the month\'s executions against the plan quota.',
    args: { plan: `The account's plan (${PLAN_IDS.filter((p) => p !== 'unlimited').join(', ')})?` },
    render: (a) =>
      `Audit the schedules of every Cronbeam job.
1. list_jobs; for each active job use explain_cron to describe its schedule.
2. Find overlaps: jobs that fire in the same minute (next_cron_runs with the same window), many jobs at minute 0 or on the hour, and jobs hitting the same host at once. Suggest staggered minutes.
3. estimate_executions for this month and compare the total with the plan quota (plan: ${orAsk(a.plan, 'their plan')}).
4. Flag jobs that run far more often than their purpose needs and paused jobs that may be obsolete.
Answer with findings first, then a list of proposed changes (do not apply them unasked).
${RULES}`,
  },
  {
    name: 'estimate_monthly_usage',
    title: "Estimate this month's executions",
    description: "Estimates this month's executions against the plan quota and what to change if it does not fit.",
    args: { plan: 'The account\'s plan?', manual_runs: 'Expected manual runs this month (optional)?' },
    render: (a) =>
      `Estimate this month's Cronbeam executions.
1. Call estimate_executions (defaults to now until the end of the UTC month).
2. Add ${a.manual_runs?.trim() ? `${a.manual_runs.trim()} expected manual run(s)` : 'expected manual runs (ask if unknown; retries of failed runs are not counted)'}.
3. Compare with the quota of the account's plan (plan: ${orAsk(a.plan, 'their plan')}): ${quotas}.
4. If it will not fit: show which jobs use the most and how a less frequent schedule would change the total (next_cron_runs/estimate_executions), or which plan fits. A job that reaches the quota stops until the next month.`,
  },
  {
    name: 'convert_crontab',
    title: 'Convert a crontab into jobs',
    description: 'Turns crontab lines into Cronbeam jobs that call HTTP endpoints.',
    args: { crontab: 'The crontab file content', base_url: 'Base URL of the HTTP endpoints that replace the commands?', timezone: 'Time zone the crontab runs in (default UTC)?' },
    render: (a) =>
      `Convert this crontab into Cronbeam jobs:
\`\`\`
${a.crontab}
\`\`\`
1. Skip comments, variables (e.g. MAILTO) and empty lines. Expand @hourly, @daily, @weekly, @monthly, @yearly/@annually, @midnight into 5 fields; @reboot has no equivalent (say so).
2. Cronbeam calls URLs, it does not run commands: map each command to an HTTP endpoint ${a.base_url?.trim() ? `under ${a.base_url.trim()}` : '(ask the user for the endpoint of each command)'}.
3. The crontab's time zone is ${a.timezone?.trim() || 'UTC'}: give each job that time_zone (an IANA name), so the hours stay as written and daylight saving time is followed; do not shift the hours.
4. Check every expression with validate_cron (7 for Sunday is not accepted: use 0), name each job, show the full list to the user, then create_job each after confirmation.
${RULES}`,
  },
  {
    name: 'migrate_github_actions',
    title: 'Migrate GitHub Actions cron workflows',
    description: 'Moves `on: schedule` workflows to Cronbeam jobs that trigger them through the GitHub API (workflow_dispatch).',
    args: { workflow: 'The workflow YAML', repository: 'owner/repo of the workflow?', workflow_file: 'The workflow file name, e.g. nightly.yml?' },
    render: (a) =>
      `Migrate this GitHub Actions scheduled workflow to Cronbeam:
\`\`\`yaml
${a.workflow}
\`\`\`
1. Read each \`schedule: - cron:\` entry (GitHub Actions cron is always UTC, so the job keeps time_zone UTC; its shortest interval is 5 minutes and it is often delayed; Cronbeam runs on the minute).
2. Each becomes a job: POST https://api.github.com/repos/${a.repository?.trim() || '{owner}/{repo}'}/actions/workflows/${a.workflow_file?.trim() || '{workflow_file}'}/dispatches with body {"ref":"main"} and headers Accept: application/vnd.github+json, Authorization: Bearer <a fine-grained token with Actions write access> (ask the user for it; never invent one), User-Agent: cronbeam.
3. The workflow needs a \`workflow_dispatch:\` trigger; show the YAML change, and that the \`schedule:\` block can be removed once the job runs.
4. validate_cron, create_job with notify_on_failure true, run_job_now and expect HTTP 204.
${RULES}`,
  },
  {
    name: 'create_daily_report_webhook',
    title: 'Create a daily report webhook',
    description: 'Schedules a daily POST to a webhook that produces or sends a report.',
    args: { url: 'The webhook URL', time: 'Time of day in UTC, HH:MM (default 08:00)?', weekdays_only: "'yes' to skip weekends?", payload: 'JSON body to send (optional)?' },
    render: (a) => {
      const given = a.time?.trim();
      const time = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(given || '08:00');
      const [hour, minute] = time ? [Number(time[1]), Number(time[2])] : [8, 0];
      const dow = a.weekdays_only?.trim().toLowerCase().startsWith('y') ? '1-5' : '*';
      return `Create a daily report webhook job.
- URL: ${a.url}, method POST, header Content-Type: application/json.
- Schedule: ${minute} ${hour} * * ${dow} (check with explain_cron and confirm the time is meant in UTC).${given && !time ? ` The time '${given}' is not HH:MM between 00:00 and 23:59, so 08:00 is assumed: ask the user.` : ''}
- Body: ${a.payload?.trim() ? a.payload.trim() : '{"report":"daily","date":"today"} or whatever the webhook expects (ask)'}.
- notify_on_failure true; name it e.g. daily-report.
Call create_job, then run_job_now to send one report now if the user agrees, and report the response.
${RULES}`;
    },
  },
  {
    name: 'keep_endpoint_warm',
    title: 'Keep a serverless endpoint warm',
    description: 'Pings a serverless function or container often enough to avoid cold starts, within the plan quota.',
    args: { url: 'The endpoint to keep warm', idle_timeout_minutes: 'After how many idle minutes the platform scales to zero (default 15)?' },
    render: (a) => {
      const idle = Math.max(2, Number(a.idle_timeout_minutes) || 15);
      // `*/n` only repeats evenly for divisors of 60: take the largest one shorter than the idle timeout.
      const every = [30, 20, 15, 12, 10, 6, 5, 4, 3, 2, 1].find((n) => n < idle) ?? 1;
      const cron = idle > 60 ? '0 * * * *' : `*/${every} * * * *`;
      return `Keep ${a.url} warm.
1. The platform scales to zero after about ${idle} idle minutes, so call it on '${cron}' (${idle > 60 ? 'hourly' : `every ${every} minute(s)`}): check it with explain_cron.
2. Use GET (or HEAD if the endpoint supports it), no body, notify_on_failure true.
3. estimate_executions and compare with the plan quota; if it does not fit, warm only during business hours (e.g. '${idle > 60 ? '0 8-18 * * 1-5' : `*/${every} 8-18 * * 1-5`}') and say what that costs in executions.
4. create_job, then run_job_now to check the endpoint answers.
${RULES}`;
    },
  },
  {
    name: 'schedule_from_description',
    title: 'Schedule a job from a plain-language description',
    description: 'Turns "every weekday at 9 in Berlin" into a cron expression with its time zone and creates the job.',
    args: { schedule: 'When it should run, in words', url: 'The URL to call', method: 'HTTP method (default GET)?' },
    render: (a) =>
      `The user wants ${a.method?.trim().toUpperCase() || 'GET'} ${a.url} to run: "${a.schedule}".
1. Translate that into a 5-field cron expression in the time zone the user means (set the job's time_zone to its IANA name, e.g. Europe/Berlin, so local times and daylight saving time are followed; UTC when none is meant).
2. explain_cron on it and check the description matches what the user said; show the next 5 runs.
3. Propose a job name, confirm, then create_job.
${RULES}`,
  },
  {
    name: 'explain_cron',
    title: 'Explain a cron expression',
    description: 'Explains a cron expression in words with its next run times, computed by Cronbeam\'s own cron rules.',
    args: { cron_expression: 'The cron expression', audience: "Who it is for, e.g. 'non-technical' (optional)?" },
    render: (a) =>
      `Explain the cron expression \`${a.cron_expression}\`${a.audience?.trim() ? ` for a ${a.audience.trim()} audience` : ''}.
Facts from Cronbeam's cron rules: ${cronFacts(a.cron_expression ?? '')}
Explain each of the five fields, what the schedule means in practice (in the time zone of the job that uses it, UTC by default), and common pitfalls (day-of-month and day-of-week together mean either one; 7 is not Sunday here). If it is invalid, explain the error and propose a corrected expression, checked with validate_cron. Offer next_cron_runs for more run times, or create_job to schedule it.`,
  },
  {
    name: 'convert_schedule_to_utc',
    title: 'Convert a local-time schedule to UTC',
    description: 'Rewrites a schedule meant in a local time zone as the UTC cron Cronbeam needs, including daylight saving time.',
    args: { cron_expression: 'The schedule as written for local time', time_zone: 'IANA time zone, e.g. Europe/Berlin' },
    render: (a) =>
      `The schedule \`${a.cron_expression}\` is meant in ${a.time_zone} local time, but Cronbeam runs cron in UTC.
Local facts: ${cronFacts(a.cron_expression ?? '')}
1. Work out the UTC offset of ${a.time_zone} in winter and in summer.
2. Give the UTC cron expression (shift hours, and days when the shift crosses midnight). If daylight saving time moves the run by an hour, say so and offer either one job that accepts the shift or two jobs for the two halves of the year.
3. Check the result with explain_cron and next_cron_runs, then offer to update_job or create_job with it.`,
  },
  {
    name: 'pause_for_maintenance',
    title: 'Pause jobs for maintenance',
    description: 'Pauses all (or matching) active jobs before a maintenance window and records which ones were paused.',
    args: { name_contains: 'Only jobs whose name contains this text (default all)?', reason: 'Why (for the summary)?' },
    render: (a) =>
      `Pause Cronbeam jobs for maintenance${a.reason?.trim() ? ` (${a.reason.trim()})` : ''}.
1. list_jobs${a.name_contains?.trim() ? ` with name_contains '${a.name_contains.trim()}'` : ''}; keep only jobs that are not already paused.
2. Show the list and ask for confirmation.
3. pause_job each one; report any that failed.
4. Finish with the exact list of job names you paused: it is needed to resume exactly these later (resume_after_maintenance), without resuming jobs that were paused before.`,
  },
  {
    name: 'resume_after_maintenance',
    title: 'Resume jobs after maintenance',
    description: 'Resumes the jobs paused for maintenance and checks they work.',
    args: { jobs: 'Comma-separated names of the jobs paused for maintenance (default: ask, or all paused jobs after confirmation)?' },
    render: (a) =>
      `Resume Cronbeam jobs after maintenance.
1. ${a.jobs?.trim() ? `Resume exactly these jobs: ${a.jobs.trim()}.` : 'list_jobs with status paused and ask the user which were paused for the maintenance (others may be paused on purpose).'}
2. resume_job each; report each job's next run time.
3. For jobs that matter most, run_job_now to check the targets are back; if any fails, show its error and its get_job_logs (the debug_failing_job prompt walks through the rest).`,
  },
  {
    name: 'clone_job',
    title: 'Clone a job',
    description: 'Copies a job under a new name, optionally with a different URL or schedule.',
    args: { job: 'Job id or name to copy', new_name: 'Name of the copy', changes: 'What differs, in words (optional)?' },
    render: (a) =>
      `Clone the Cronbeam job '${a.job}' as '${a.new_name}'.
1. get_job for the original's URL, method, headers, body, schedule and notify_on_failure.
2. ${a.changes?.trim() ? `Apply these changes: ${a.changes.trim()}.` : 'Keep everything the same unless the user asks otherwise.'}
3. create_job with the new name (a name that is taken gives a 422 naming the field: pick another). If the plan's job limit is reached, say so: paused jobs count too, so a job must be deleted or the plan upgraded.
${RULES}`,
  },
  {
    name: 'job_health_report',
    title: 'Write a job health report',
    description: 'Summarises success rate, response times and recent errors for one or all jobs.',
    args: { job: 'Job id or name (default all jobs)?' },
    render: (a) =>
      `Write a health report for ${a.job?.trim() ? `the Cronbeam job '${a.job.trim()}'` : 'every Cronbeam job'}.
1. ${a.job?.trim() ? 'get_job and get_job_logs for it.' : 'list_jobs, then get_job_logs for each job that has run.'}
2. Per job: executions in the logs, success rate, median and slowest duration_ms, last error, skipped (quota) or missed (outage) runs, next run.
3. Highlight what needs attention first; keep it to one short table plus three bullet points.`,
  },
  {
    name: 'review_job_security',
    title: 'Review jobs for security issues',
    description: 'Checks jobs for plain-HTTP URLs, secrets in URLs or bodies, and missing failure alerts.',
    args: { job: 'Job id or name (default all jobs)?' },
    render: (a) =>
      `Review ${a.job?.trim() ? `the Cronbeam job '${a.job.trim()}'` : 'all Cronbeam jobs'} for security issues.
1. ${a.job?.trim() ? 'get_job.' : 'list_jobs.'}
2. Flag: http:// URLs (use https), tokens or passwords in the URL query string (move them to an Authorization header), secrets in bodies, Authorization headers whose tokens look long-lived, and jobs without notify_on_failure.
3. Never print full secret values back: show only their first 4 characters.
4. Propose update_job changes and apply them only after confirmation.`,
  },
  {
    name: 'cleanup_stale_jobs',
    title: 'Clean up stale jobs',
    description: 'Finds jobs that are paused for long, never succeed or never ran, and proposes deleting them.',
    args: { idle_days: 'Consider jobs stale after this many days without a run (default 30)?' },
    render: (a) =>
      `Find stale Cronbeam jobs to clean up (threshold: ${a.idle_days?.trim() || '30'} days).
1. list_jobs; note paused jobs, jobs whose last_run_at is older than the threshold or null, and (with find_failing_jobs) jobs that fail every time.
2. Present them grouped by reason with their names and last run.
3. Ask which to delete; delete_job only those confirmed (deleting removes their logs too; pause_job keeps them).`,
  },
];

const argsSchema = (args: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(args).map(([key, description]) => {
      const optional = description.endsWith('?');
      const text = optional ? description.slice(0, -1) : description;
      return [key, optional ? z.string().optional().describe(text) : z.string().min(1, `${key} is required`).describe(text)];
    }),
  );

/** Registers every prompt: a single user message the assistant then carries out with the tools. */
export function registerPrompts(server: McpServer): void {
  for (const prompt of PROMPTS) {
    server.registerPrompt(prompt.name, { title: prompt.title, description: prompt.description, argsSchema: argsSchema(prompt.args) }, (args: Args): GetPromptResult => ({
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.render(args) } }],
    }));
  }
}
