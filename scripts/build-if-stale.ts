import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * `npm start` runs this before the server: each build whose outputs were made
 * from exactly the current sources is skipped, so a start with a current build
 * takes the server's own start-up time instead of a full rebuild.
 *
 * "Current" is decided by content, not by modification times: a SHA-256 over
 * every input file's path and bytes, written beside the outputs after a
 * successful build. Times would lie after a `git pull`, a checkout of an older
 * branch or a copied tree; a hash of the bytes cannot. The hash is taken
 * before the build runs, so a file edited while it runs makes the next start
 * build again rather than trust an output that may predate the edit.
 */
export interface Build {
  /** The npm script that makes the outputs. */
  script: string;
  /** Folders and files (relative to the repository) whose bytes the outputs depend on. */
  inputs: (root: string) => string[];
  /** Written by the last successful build: the inputs' hash. Inside the outputs, so removing them removes it. */
  stamp: string;
  /** Outputs that must exist for a skip (someone may have deleted part of dist/). */
  outputs: string[];
  /** Folders emptied before the build, so files of deleted sources do not linger. */
  clean: string[];
}

/** Never inputs, at any depth: installed packages and version control. */
const NEVER = new Set(['node_modules', '.git']);

/**
 * Top-level entries the web build never reads: outputs (among them
 * dist/generated, which the web build writes itself), data, tests, docs, the
 * integration packages, the desktop shell (web/ may not import it, a lint rule
 * says so; its build output is under desktop/out), CI. The web inputs are everything else, so sources
 * that move or appear (a new top-level folder) count without editing this list.
 */
const NOT_WEB_INPUTS = new Set(['dist', 'out', 'data', 'coverage', 'test', 'docs', 'integrations', 'desktop', '.ci']);

/** Dependency versions: the lock npm wrote when installing (node_modules/.package-lock.json), and the committed lock. */
const DEPENDENCY_FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'];

export const BUILDS: Build[] = [
  {
    script: 'build:backend',
    inputs: () => ['backend/src', 'shared/src', 'shared/package.json', 'scripts/build-shared.mjs', '.swcrc', ...DEPENDENCY_FILES],
    stamp: 'dist/backend/.inputs-sha256',
    outputs: ['dist/backend/src/main.js', 'dist/node_modules/@cronbeam/shared/package.json'],
    // dist/shared: where builds before @cronbeam/shared (ADR 0179) put the shared code.
    clean: ['dist/backend', 'dist/node_modules', 'dist/shared'],
  },
  {
    script: 'build:web',
    inputs: (root) => [
      ...fs
        .readdirSync(root)
        .filter((name) => !NEVER.has(name) && !NOT_WEB_INPUTS.has(name) && !/\.(md|log)$/.test(name))
        .sort(),
      'node_modules/.package-lock.json',
    ],
    stamp: 'dist/web/.inputs-sha256',
    outputs: ['dist/web/index.html', 'dist/web/site-pages/manifest.json'],
    clean: [],
  },
];

/** Every file under the given inputs, as sorted paths relative to root (missing inputs are skipped). */
function inputFiles(root: string, inputs: string[]): string[] {
  const files: string[] = [];
  const visit = (relative: string): void => {
    const absolute = path.join(root, relative);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch {
      return;
    }
    if (stat.isFile()) {
      files.push(relative);
    } else if (stat.isDirectory()) {
      // A file inside node_modules may be named as an input itself (its lock); the packages found while walking a folder are not.
      for (const name of fs.readdirSync(absolute)) if (!NEVER.has(name)) visit(path.posix.join(relative, name));
    }
  };
  for (const input of inputs) visit(input);
  return [...new Set(files)].sort();
}

/** SHA-256 over each input file's relative path and bytes, in a fixed order. */
export function inputsHash(root: string, build: Build): string {
  const hash = createHash('sha256');
  for (const file of inputFiles(root, build.inputs(root))) {
    hash.update(file).update('\0').update(fs.readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

function isCurrent(root: string, build: Build, hash: string): boolean {
  if (!build.outputs.every((output) => fs.existsSync(path.join(root, output)))) return false;
  try {
    return fs.readFileSync(path.join(root, build.stamp), 'utf8').trim() === hash;
  } catch {
    return false;
  }
}

/** Runs an npm script in root; throws when it fails. */
function runNpmScript(root: string, script: string): void {
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run ${script} failed (${result.error?.message ?? `exit code ${result.status}`})`);
}

/**
 * Builds what is stale, in order, and returns the scripts it ran. The stamp is
 * removed before a build and written only after it succeeds, so a failed or
 * interrupted build is never taken for a current one.
 */
export function buildIfStale(root: string, builds: Build[] = BUILDS, run: (root: string, script: string) => void = runNpmScript): string[] {
  const ran: string[] = [];
  for (const build of builds) {
    const hash = inputsHash(root, build);
    if (isCurrent(root, build, hash)) continue;
    fs.rmSync(path.join(root, build.stamp), { force: true });
    for (const folder of build.clean) fs.rmSync(path.join(root, folder), { recursive: true, force: true });
    run(root, build.script);
    fs.mkdirSync(path.dirname(path.join(root, build.stamp)), { recursive: true });
    fs.writeFileSync(path.join(root, build.stamp), `${hash}\n`);
    ran.push(build.script);
  }
  return ran;
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  try {
    const ran = buildIfStale(root);
    const skipped = BUILDS.map((build) => build.script).filter((script) => !ran.includes(script));
    if (skipped.length > 0) process.stdout.write(`Current, not rebuilt (sources unchanged since the last build): ${skipped.join(', ')}\n`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
