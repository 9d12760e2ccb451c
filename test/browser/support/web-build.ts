import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');

/**
 * A fresh production build of the web app in a temporary folder, so the
 * browser tests exercise what `npm run build:web` ships and never a stale dist.
 */
export function buildWebApp(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'cronbeam-web-'));
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], // jest runs with NODE_ENV=test, which would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' } },
  );
  return outDir;
}
