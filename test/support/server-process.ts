import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

/**
 * The real server entry point (backend/src/main.ts) in a child process, with
 * only the given environment and a data directory of its own. `exitCode()`
 * waits for it to exit, and stops it if it is still running after
 * `timeoutMs` (a server that should have refused to start but did not).
 */
export function runServerProcess(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-process-'));
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'backend/src/main.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SWC_NODE_PROJECT: 'tsconfig.backend.json', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const exitCode = async (timeoutMs = 60_000): Promise<number | null> => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
  return { child, exitCode, output: () => output };
}


/**
 * Like runServerProcess, on a free port (or env.PORT), resolved once `/api/ready`
 * answers 200 (rejected with its output if it exits first).
 */
export async function startServerProcess(env: Record<string, string>, readyWithinMs = 60_000) {
  const port = env.PORT ?? String(await freePort());
  const run = runServerProcess({ ...env, PORT: port });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`server exited with ${run.child.exitCode}:\n${run.output()}`);
    if (await fetch(`${url}/api/ready`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      // Not left running behind a failed test.
      run.child.kill('SIGKILL');
      throw new Error(`server not ready within ${readyWithinMs} ms:\n${run.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { ...run, url };
}
