import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCHEDULER_NODE_FLAGS } from '../../backend/src/modules/scheduler/idle-collector';
import { freePort } from '../support/free-port';

const ROOT = path.resolve(__dirname, '../..');


/** One backend process (the built server, dist/) running the scheduler against the benchmark's database. */
export class BenchInstance {
  /** How the process ended, if it ended before stop() (signal name or exit code). */
  exitedEarly: string | null = null;
  private stopping = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.once('exit', (code, signal) => {
      if (!this.stopping) this.exitedEarly = signal ?? `exit code ${code}`;
    });
  }

  static async start(databaseUrl: string, env: Record<string, string>, logFile: string): Promise<BenchInstance> {
    const port = await freePort();
    const log = fs.openSync(logFile, 'a');
    // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of every instance there (open it in Chrome DevTools).
    const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
    // BENCH_NODE_ARGS="--trace-gc ..." passes V8/Node flags to the instances only (their output goes to the log file).
    const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    // Started as `npm start` starts the service: with the flags the idle collector needs (gc() exposed, V8's trigger raised).
    const child = spawn(process.execPath, [...SCHEDULER_NODE_FLAGS, ...profile, ...extra, path.join(ROOT, 'dist/backend/src/main.js')], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, ...env },
      stdio: ['ignore', log, log],
    });
    const instance = new BenchInstance(child, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`backend exited with ${child.exitCode}; see ${logFile}`);
      try {
        if ((await fetch(`${instance.url}/api/ready`)).ok) return instance;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`backend not ready within 60 s; see ${logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Peak resident set size of the process so far (Linux VmHWM), in MB. */
  peakRssMb(): number {
    try {
      const status = fs.readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
      return Math.round(kb / 1024);
    } catch {
      return NaN;
    }
  }

  /** User + system CPU time of the process so far (Linux /proc, clock ticks of 10 ms), in ms; NaN elsewhere. */
  cpuMs(): number {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const stat = fs.readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return NaN;
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
