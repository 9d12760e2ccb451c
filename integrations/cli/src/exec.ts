import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { unwrap, type CronbeamClient } from '@cronbeam/sdk';
import { describeFailure, EXIT } from './exit-codes';
import { findMonitor, pingToken } from './lookup';

export interface ExecOutcome {
  /** The command's exit status (128 + the signal number when a signal ended it; 127 when it could not start). */
  exitCode: number;
  /** The ping sent at the end: success for status 0, fail otherwise. */
  reported: 'success' | 'fail';
}

/** Runs the command with this process's input and output; resolves with how it ended. */
function run(command: string, args: string[]): Promise<{ exitCode: number; startError?: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    // Signals for the wrapper (Ctrl-C, a CI runner's stop) go to the command, whose end is then reported.
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, forward);
    const done = (result: { exitCode: number; startError?: string }) => {
      for (const signal of signals) process.off(signal, forward);
      resolve(result);
    };
    child.on('error', (error: NodeJS.ErrnoException) => done({ exitCode: EXIT.commandNotStarted, startError: `${command}: ${error.code === 'ENOENT' ? 'command not found' : error.message}` }));
    child.on('exit', (code, signal) => done({ exitCode: code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0) }));
  });
}

/**
 * The heartbeat wrapper: pings the monitor's start, runs the command, then
 * pings success (exit status 0) or failure, and ends with the command's own
 * status. A monitor that cannot be found or pinged (no login, Cronbeam
 * unreachable) is reported on stderr and does not stop the command:
 * monitoring trouble must not cost the job its run.
 */
export async function execWithMonitor(connect: () => Promise<CronbeamClient>, monitorName: string, command: string, args: string[], warn: (line: string) => void): Promise<ExecOutcome> {
  let client: CronbeamClient | null = null;
  let token = '';
  try {
    client = await connect();
    token = pingToken(await findMonitor(client, monitorName));
  } catch (error) {
    client = null;
    warn(`cronbeam: monitor '${monitorName}' will not be pinged: ${describeFailure(error).message}`);
  }
  const ping = async (kind: 'start' | 'success' | 'fail') => {
    if (!client) return;
    try {
      if (kind === 'start') await unwrap(client.POST('/ping/{token}/start', { params: { path: { token } } }));
      else if (kind === 'fail') await unwrap(client.POST('/ping/{token}/fail', { params: { path: { token } } }));
      else await unwrap(client.POST('/ping/{token}', { params: { path: { token } } }));
    } catch (error) {
      warn(`cronbeam: the ${kind} ping to monitor '${monitorName}' failed: ${describeFailure(error).message}`);
    }
  };
  await ping('start');
  const { exitCode, startError } = await run(command, args);
  if (startError) warn(`cronbeam: ${startError}`);
  const reported = exitCode === 0 ? 'success' : 'fail';
  await ping(reported);
  if (exitCode !== 0) warn(`cronbeam: '${command}' exited with status ${exitCode}; monitor '${monitorName}' was told it failed`);
  return { exitCode, reported };
}
