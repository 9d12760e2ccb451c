// Bundles the CLI into one CommonJS file with a shebang (the package's bin):
// the SDK (from source), openapi-fetch, commander, yaml, zod and the shared
// job and monitor rules (shared/src) are all compiled in, so the published
// package installs with no dependency to fetch. keytar stays external: a
// native, optional dependency, loaded only where it installed.
// Usage: node build.mjs [output file, default dist/cronbeam.js]
import { chmod } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const packageDir = dirname(fileURLToPath(import.meta.url));
const outFile = resolve(packageDir, process.argv[2] ?? 'dist/cronbeam.js');

await build({
  input: resolve(packageDir, 'src/main.ts'),
  platform: 'node',
  external: [/^keytar$/, /^node:/],
  resolve: {
    alias: {
      '@cronbeam/sdk': resolve(packageDir, '../sdk/src/index.ts'),
    },
  },
  logLevel: 'warn',
  output: { file: outFile, format: 'cjs', banner: '#!/usr/bin/env node', sourcemap: false },
});
await chmod(outFile, 0o755);
