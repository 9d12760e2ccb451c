// The backend build's second half: compiles @cronbeam/shared (TypeScript source,
// ADR 0179) into dist/node_modules/@cronbeam/shared with a package.json whose
// exports point at the compiled files. Node resolves a package from the folders
// above the requiring file first, so the compiled server (dist/backend/src)
// finds this copy before the workspace link to the source in node_modules/.
// Usage: node scripts/build-shared.mjs   (from the repository root; npm run build:backend runs it)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist/node_modules/@cronbeam/shared');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

// --strip-leading-paths drops "shared/": the output keeps the package's own layout (src/...).
const swc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/@swc/cli/bin/swc.js'), 'shared/src', '-d', outDir, '--config-file', '.swcrc', '--quiet', '--strip-leading-paths'],
  { cwd: root, stdio: 'inherit' },
);
if (swc.status !== 0) process.exit(swc.status ?? 1);

const source = JSON.parse(readFileSync(join(root, 'shared/package.json'), 'utf8'));
const toJs = (target) => target.replace(/\.ts$/, '.js');
const exportsJs = Object.fromEntries(Object.entries(source.exports).map(([subpath, target]) => [subpath, toJs(target)]));
const manifest = { name: source.name, version: source.version, private: true, exports: exportsJs, dependencies: source.dependencies };
writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
