// Bundles the server into one CommonJS file with a shebang (the package's bin).
// The shared job rules and cron code (shared/src) and the Cronbeam SDK (from
// source, with openapi-fetch) are compiled into the bundle, so the published
// package needs no copy of them; its npm dependencies (the MCP SDK, zod,
// croner) stay external and install with the package.
// Usage: node build.mjs [output file, default dist/cronbeam-mcp.js]
import { chmod } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const packageDir = dirname(fileURLToPath(import.meta.url));
const outFile = resolve(packageDir, process.argv[2] ?? 'dist/cronbeam-mcp.js');

await build({
  input: resolve(packageDir, 'src/main.ts'),
  platform: 'node',
  external: [/^@modelcontextprotocol\/sdk(\/|$)/, /^zod(\/|$)/, /^croner$/, /^node:/],
  resolve: {
    alias: {
      '@cronbeam/sdk': resolve(packageDir, '../sdk/src/index.ts'),
    },
  },
  logLevel: 'warn',
  output: { file: outFile, format: 'cjs', banner: '#!/usr/bin/env node', sourcemap: false },
});
await chmod(outFile, 0o755);
