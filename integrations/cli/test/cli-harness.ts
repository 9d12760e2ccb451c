import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PACKAGE_DIR = join(__dirname, '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI's bin, built with the package's own build script into a folder of
 * this test's, and run as a child process the way a shell would: only the
 * environment given (plus PATH), standard input when given.
 */
export class BuiltCli {
  private constructor(
    readonly dir: string,
    readonly binPath: string,
  ) {}

  static build(): BuiltCli {
    const dir = mkdtempSync(join(tmpdir(), 'cronbeam-cli-'));
    const binPath = join(dir, 'cronbeam.js');
    execFileSync(process.execPath, [join(PACKAGE_DIR, 'build.mjs'), binPath], { stdio: 'pipe' });
    return new BuiltCli(dir, binPath);
  }

  /** Runs asynchronously: the server the CLI calls lives in the test's own process. */
  run(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
    return runCommand(process.execPath, [this.binPath, ...args], env, input);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function runCommand(file: string, args: string[], env: Record<string, string>, input?: string, cwd?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { env: { PATH: process.env.PATH ?? '', ...env }, cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}
