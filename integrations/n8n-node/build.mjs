// Bundles the n8n package into dist/ as n8n loads it: one CommonJS file per
// credential and node (the paths in package.json's n8n section), the code they
// share in dist/nodes/shared/. The shared rules (shared/src) and the SDK's core
// (paths, error details) are compiled in: n8n community packages may depend on
// nothing at run time but n8n-workflow, which n8n provides. Then copies the icons
// and codex files n8n reads beside the compiled nodes.
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const packageDir = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(packageDir, 'dist');
rmSync(outDir, { recursive: true, force: true });

await build({
  input: {
    'credentials/CronbeamApi.credentials': resolve(packageDir, 'credentials/CronbeamApi.credentials.ts'),
    'nodes/Cronbeam/Cronbeam.node': resolve(packageDir, 'nodes/Cronbeam/Cronbeam.node.ts'),
    'nodes/CronbeamTrigger/CronbeamTrigger.node': resolve(packageDir, 'nodes/CronbeamTrigger/CronbeamTrigger.node.ts'),
  },
  platform: 'node',
  external: [/^n8n-workflow$/],
  logLevel: 'warn',
  output: { dir: outDir, format: 'cjs', chunkFileNames: 'nodes/shared/[name].js', sourcemap: false },
});
await import('./scripts/copy-static.mjs');
