import { readFileSync } from 'node:fs';
import { unwrap, type Job, type JobDefinition, type JobLogEntry } from '@cronbeam/sdk';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { definitionOfJob, normaliseJob } from './desired-state';
import { CliError, EXIT, usageError } from './exit-codes';
import { findJob } from './lookup';
import { cell, printFields, printJson, printLine, printTable } from './output';
import { clientFor, resolveSettings } from './settings';

interface Global {
  json?: boolean;
}

interface JobFlags {
  file?: string;
  name?: string;
  url?: string;
  cron?: string;
  every?: string;
  runAt?: string;
  startsAt?: string;
  endsAt?: string;
  jitter?: string;
  overlap?: string;
  catchUp?: string;
  catchUpWindow?: string;
  method?: string;
  header?: string[];
  body?: string;
  timeZone?: string;
  timeout?: string;
  delivery?: string;
  callbackUrl?: string;
  notifyOnFailure?: boolean;
}

const connect = async () => clientFor(await resolveSettings());

/** The definition fields given as flags (and with -f, those of the file first). */
function definitionFromFlags(flags: JobFlags): Record<string, unknown> {
  const fromFile = flags.file ? (parseYaml(readFileSync(flags.file, 'utf8')) as Record<string, unknown>) : {};
  const headers = flags.header?.map((header) => {
    const colon = header.indexOf(':');
    if (colon < 1) throw usageError(`--header '${header}' must read 'Name: value'`);
    return [header.slice(0, colon).trim(), header.slice(colon + 1).trim()];
  });
  const timeout = flags.timeout === undefined ? undefined : Number(flags.timeout);
  const whole = (text: string | undefined) => (text === undefined ? undefined : /^\d+$/.test(text.trim()) ? Number(text) : text);
  // A job has one schedule form: the one given as a flag replaces the others (an update from cron to an interval, say).
  const form = flags.cron !== undefined || flags.every !== undefined || flags.runAt !== undefined ? { cron_expression: flags.cron ?? null, every_seconds: whole(flags.every) ?? null, run_at: flags.runAt ?? null } : {};
  const given = {
    name: flags.name,
    url: flags.url,
    ...form,
    starts_at: flags.startsAt,
    ends_at: flags.endsAt,
    jitter_seconds: whole(flags.jitter),
    overlap: flags.overlap,
    catch_up: flags.catchUp,
    catch_up_window_seconds: whole(flags.catchUpWindow),
    method: flags.method?.toUpperCase(),
    headers: headers ? Object.fromEntries(headers) : undefined,
    body: flags.body,
    time_zone: flags.timeZone,
    timeout_seconds: timeout,
    delivery: flags.delivery,
    // 'none' turns callbacks off (an empty flag value is easy to lose in a shell).
    callback_url: flags.callbackUrl === 'none' ? null : flags.callbackUrl,
    notify_on_failure: flags.notifyOnFailure,
  };
  return { ...fromFile, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
}

function jobRows(jobs: Job[]): string[][] {
  return jobs.map((job) => [job.name, job.status, scheduleText(job), job.time_zone, cell(job.next_run_at), job.job_id]);
}

/** A job's schedule in one cell: its cron expression, its interval or its one-off instant. */
function scheduleText(job: Job): string {
  if (job.cron_expression) return job.cron_expression;
  if (job.every_seconds != null) return `every ${job.every_seconds}s`;
  return job.run_at ? `once at ${job.run_at}` : '-';
}

function logRows(logs: JobLogEntry[]): string[][] {
  return logs.map((entry) => [cell(entry.executed_at ?? entry.scheduled_for), cell(entry.trigger), cell(entry.status), cell(entry.response_code), entry.duration_ms == null ? '-' : `${entry.duration_ms} ms`, cell(entry.error_message)]);
}

const LOG_HEADERS = ['EXECUTED', 'TRIGGER', 'STATUS', 'CODE', 'DURATION', 'ERROR'];

function defineOptions(command: Command): Command {
  return command
    .option('-f, --file <file>', 'a job definition in YAML or JSON (flags override its fields)')
    .option('--name <name>', 'letters, digits, hyphens and underscores')
    .option('--url <url>', 'the http:// or https:// URL to call')
    .option('--cron <expression>', "5-field cron expression, e.g. '0 2 * * *' (6 fields with a leading second)")
    .option('--every <seconds>', 'run every this many seconds instead of on a cron expression')
    .option('--run-at <instant>', 'run once at this ISO 8601 instant, e.g. 2026-12-01T09:00:00Z')
    .option('--starts-at <instant>', 'no run before this instant (an interval counts from it)')
    .option('--ends-at <instant>', 'no run after this instant')
    .option('--jitter <seconds>', 'shift every run by a fixed per-job offset within this many seconds')
    .option('--overlap <policy>', 'allow, or skip a run while the previous one is in flight')
    .option('--catch-up <policy>', 'after an outage or a pause: latest, none or all_within')
    .option('--catch-up-window <seconds>', 'with --catch-up all_within: how far back missed runs still fire')
    .option('--method <method>', 'GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS')
    .option('--header <header>', "a request header 'Name: value' (repeatable)", (value: string, previous: string[] = []) => [...previous, value])
    .option('--body <body>', 'the request body')
    .option('--time-zone <zone>', 'IANA time zone the schedule is read in, e.g. Europe/Berlin')
    .option('--timeout <seconds>', 'seconds to wait for the response')
    .option('--delivery <delivery>', 'at_least_once or at_most_once')
    .option('--callback-url <url>', "where each completed run's outcome is POSTed (signed); 'none' for no callbacks")
    .option('--notify-on-failure', 'alert when a run fails');
}

export function registerJobCommands(program: Command): void {
  const jobs = program.command('jobs').description('manage jobs (a job is named by its name or its id)');
  const global = (command: Command) => command.optsWithGlobals<Global>();

  jobs
    .command('list')
    .description('list your jobs')
    .action(async (_options, command: Command) => {
      const list = await unwrap((await connect()).GET('/prog/jobs'));
      if (global(command).json) printJson(list);
      else printTable(['NAME', 'STATUS', 'SCHEDULE', 'TIME ZONE', 'NEXT RUN', 'ID'], jobRows(list), 'No jobs yet: create one with cronbeam jobs create, or cronbeam apply -f cronbeam.yaml');
    });

  jobs
    .command('get <job>')
    .description("show a job's definition and state")
    .action(async (job: string, _options, command: Command) => {
      const found = await findJob(await connect(), job);
      if (global(command).json) printJson(found);
      else printFields(found);
    });

  defineOptions(jobs.command('create').description('create a job (--name, --url and one of --cron, --every and --run-at at least, or -f)')).action(async (flags: JobFlags, command: Command) => {
    const body = normaliseJob(definitionFromFlags(flags), 'job');
    const created = await unwrap((await connect()).POST('/prog/jobs', { body }));
    if (global(command).json) printJson(created);
    else printLine(`Created job ${created.name} (${created.job_id}); next run ${cell(created.next_run_at)}`);
  });

  defineOptions(jobs.command('update <job>').description('change the fields given; the others keep their values')).action(async (job: string, flags: JobFlags, command: Command) => {
    const client = await connect();
    const current = await findJob(client, job);
    const body: JobDefinition = normaliseJob({ ...definitionOfJob(current), ...definitionFromFlags(flags) }, `job ${current.name}`);
    const updated = await unwrap(client.PUT('/prog/jobs/{job_id}', { params: { path: { job_id: current.job_id } }, body }));
    if (global(command).json) printJson(updated);
    else printLine(`Updated job ${updated.name}`);
  });

  jobs
    .command('delete <job>')
    .description('delete a job and its logs')
    .action(async (job: string, _options, command: Command) => {
      const client = await connect();
      const found = await findJob(client, job);
      await unwrap(client.DELETE('/prog/jobs/{job_id}', { params: { path: { job_id: found.job_id } } }));
      if (global(command).json) printJson({ deleted: found.job_id, name: found.name });
      else printLine(`Deleted job ${found.name}`);
    });

  for (const [action, verb] of [
    ['pause', 'Paused'],
    ['resume', 'Resumed'],
  ] as const) {
    jobs
      .command(`${action} <job>`)
      .description(action === 'pause' ? 'stop running a job on its schedule' : 'run a paused job on its schedule again')
      .action(async (job: string, _options, command: Command) => {
        const client = await connect();
        const found = await findJob(client, job);
        const path = { job_id: found.job_id };
        const changed = await unwrap(action === 'pause' ? client.POST('/prog/jobs/{job_id}/pause', { params: { path } }) : client.POST('/prog/jobs/{job_id}/resume', { params: { path } }));
        if (global(command).json) printJson(changed);
        else printLine(`${verb} job ${found.name} (status ${changed.status})`);
      });
  }

  jobs
    .command('run <job>')
    .description('run a job now and wait for the result (exit status 1 when the run fails)')
    .action(async (job: string, _options, command: Command) => {
      const client = await connect();
      const found = await findJob(client, job);
      const result = await unwrap(client.POST('/prog/jobs/{job_id}/run', { params: { path: { job_id: found.job_id } } }));
      if (global(command).json) printJson(result);
      else printTable(LOG_HEADERS, logRows([result]), '');
      if (result.status !== 'success') throw new CliError(`Run of ${found.name} ${cell(result.status)}${result.error_message ? `: ${result.error_message}` : ''}`, EXIT.failed);
    });

  jobs
    .command('logs <job>')
    .description("a job's latest runs, newest first")
    .option('--follow', 'keep printing new runs as they finish (Ctrl-C stops)')
    .option('--interval <seconds>', 'how often --follow asks', '10')
    .action(async (job: string, options: { follow?: boolean; interval: string }, command: Command) => {
      const client = await connect();
      const found = await findJob(client, job);
      const read = async () => (await unwrap(client.GET('/prog/jobs/{job_id}/logs', { params: { path: { job_id: found.job_id } } }))).logs ?? [];
      const json = global(command).json;
      const logs = await read();
      if (!options.follow) {
        if (json) printJson(logs);
        else printTable(LOG_HEADERS, logRows(logs), `No runs of ${found.name} yet`);
        return;
      }
      const intervalMs = Number(options.interval) * 1000;
      if (!Number.isFinite(intervalMs) || intervalMs < 1000) throw usageError('--interval must be a number of seconds, 1 or more');
      // Oldest first, so the output reads as a timeline; each run is printed once.
      const seen = new Set<string>();
      const show = (entries: JobLogEntry[]) => {
        for (const entry of [...entries].reverse().filter((candidate) => !seen.has(candidate.run_id ?? ''))) {
          seen.add(entry.run_id ?? '');
          if (json) process.stdout.write(`${JSON.stringify(entry)}\n`);
          else printLine(logRows([entry])[0]?.join('  '));
        }
      };
      show(logs);
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
        show(await read());
      }
    });
}
