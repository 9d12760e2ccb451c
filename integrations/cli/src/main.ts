import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { unwrap } from '@cronbeam/sdk';
import { Command, CommanderError } from 'commander';
import { applyPlan, describePlan, makePlan } from './apply';
import { exportedState, parseDesiredState, toYamlText } from './desired-state';
import { execWithMonitor } from './exec';
import { describeFailure, EXIT, usageError } from './exit-codes';
import { registerJobCommands } from './job-commands';
import { registerMonitorCommands } from './monitor-commands';
import { printJson, printLine } from './output';
import { checkedUrl, clientFor, removeLogin, resolveSettings, saveLogin } from './settings';
import { CLI_VERSION } from './version';

interface Global {
  json?: boolean;
}

const warn = (line: string) => process.stderr.write(`${line}\n`);

/** Asks on the terminal; without one, a missing value is a usage error naming its flag. */
async function ask(question: string, flag: string): Promise<string> {
  if (!process.stdin.isTTY) throw usageError(`${flag} is required when not run in a terminal`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await prompt.question(question)).trim();
  } finally {
    prompt.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function buildProgram(): Command {
  const program = new Command('cronbeam')
    .description('Cronbeam from the terminal and CI: jobs, heartbeat monitors, jobs as code (apply) and a heartbeat wrapper (exec).')
    .version(CLI_VERSION)
    .option('--json', 'print JSON for scripts instead of tables')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('login')
    .description('check an API key and keep it (OS keychain where one answers, else a 0600 file)')
    .option('--url <url>', 'where Cronbeam runs, e.g. https://cronbeam.example')
    .option('--user-id <id>', 'your user id (profile page)')
    .option('--api-key <key>', 'an API key (visible in the process list: prefer --api-key-stdin or the prompt)')
    .option('--api-key-stdin', 'read the API key from standard input')
    .action(async (flags: { url?: string; userId?: string; apiKey?: string; apiKeyStdin?: boolean }, command: Command) => {
      const url = checkedUrl(flags.url ?? (process.env.CRONBEAM_URL || (await ask('Cronbeam URL: ', '--url'))));
      const userId = flags.userId ?? (process.env.CRONBEAM_USER_ID || (await ask('User id: ', '--user-id')));
      const apiKey = flags.apiKeyStdin ? await readStdin() : (flags.apiKey ?? (await ask('API key: ', '--api-key-stdin')));
      if (!apiKey || /\s/.test(apiKey)) throw usageError('The API key is empty or contains spaces: paste it exactly as shown when it was generated');
      const settings = { url, apiKey, userId: userId || null };
      // A key is kept only once the API has accepted it.
      await unwrap(clientFor(settings).GET('/prog/jobs'));
      const { keyIn, file } = await saveLogin(settings);
      if (command.optsWithGlobals<Global>().json) printJson({ url, user_id: settings.userId, key_in: keyIn, file });
      else printLine(`Logged in to ${url}${settings.userId ? ` as ${settings.userId}` : ''}; the key is kept in ${keyIn === 'keychain' ? 'the OS keychain' : `${file} (readable by you only)`}`);
    });

  program
    .command('logout')
    .description('forget the stored login')
    .action(async () => {
      printLine((await removeLogin()) ? 'Logged out' : 'Not logged in');
    });

  registerJobCommands(program);
  registerMonitorCommands(program);

  program
    .command('export')
    .description('write your jobs and monitors as a cronbeam.yaml that apply turns back into the same state')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .action(async (flags: { output?: string }, command: Command) => {
      const client = clientFor(await resolveSettings());
      const [jobs, monitors] = await Promise.all([unwrap(client.GET('/prog/jobs')), unwrap(client.GET('/prog/monitors'))]);
      const state = exportedState(jobs, monitors);
      const text = command.optsWithGlobals<Global>().json ? `${JSON.stringify(state, null, 2)}\n` : toYamlText(state);
      if (flags.output) writeFileSync(flags.output, text);
      else process.stdout.write(text);
    });

  program
    .command('apply')
    .description('make the account match a cronbeam.yaml: shows the plan (create / update / delete), then applies it')
    .requiredOption('-f, --file <file>', "the desired state ('-' reads standard input)")
    .option('--dry-run', 'show the plan only')
    .option('--prune', 'delete jobs and monitors the file does not declare')
    .action(async (flags: { file: string; dryRun?: boolean; prune?: boolean }, command: Command) => {
      const text = flags.file === '-' ? await readStdin() : readDesiredFile(flags.file);
      const desired = parseDesiredState(text, flags.file);
      const client = clientFor(await resolveSettings());
      const plan = await makePlan(client, desired, flags.prune ?? false);
      const json = command.optsWithGlobals<Global>().json;
      if (!json) for (const line of describePlan(plan)) printLine(line);
      if (!flags.dryRun && plan.changes.length) {
        await applyPlan(client, plan, (change) => json || printLine(`${change.action === 'create' ? 'Created' : change.action === 'update' ? 'Updated' : 'Deleted'} ${change.kind} ${change.name}`));
        if (!json) printLine('Applied.');
      }
      if (json) printJson({ dry_run: flags.dryRun ?? false, applied: !flags.dryRun && plan.changes.length > 0, changes: plan.changes, unmanaged: plan.unmanaged });
    });

  program
    .command('exec')
    .description('ping a monitor\'s start, run a command, then ping success or failure; ends with the command\'s exit status')
    .requiredOption('--monitor <name>', 'the monitor to ping (name or id)')
    .argument('<command...>', 'the command and its arguments, after --')
    .action(async (commandLine: string[], flags: { monitor: string }) => {
      const [command, ...args] = commandLine;
      if (!command) throw usageError('Give the command to run after --, e.g. cronbeam exec --monitor backup -- ./backup.sh');
      const { exitCode } = await execWithMonitor(async () => clientFor(await resolveSettings()), flags.monitor, command, args, warn);
      process.exitCode = exitCode;
    });

  return program;
}

function readDesiredFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with 0; any other complaint of the argument parser is a usage error (already printed).
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const { message, exitCode } = describeFailure(error);
    warn(`cronbeam: ${message}`);
    process.exitCode = exitCode;
  }
}

void main();
