import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiDocuments } from './openapi-documents';

/**
 * Lints both OpenAPI documents, as the server serves them, with Redocly's
 * rules (redocly.yaml): any error fails, warnings are shown. No database or
 * server is needed, so CI runs this once.
 */
async function main(): Promise<void> {
  const documents = await openApiDocuments();
  const dir = mkdtempSync(join(tmpdir(), 'cronbeam-openapi-'));
  try {
    const files = Object.entries(documents).map(([name, document]) => {
      const file = join(dir, `${name}-openapi.json`);
      writeFileSync(file, JSON.stringify(document, null, 2));
      return file;
    });
    execFileSync(process.execPath, [require.resolve('@redocly/cli/bin/cli.js'), 'lint', '--config', join(__dirname, '..', 'redocly.yaml'), ...files], {
      stdio: 'inherit',
      // No telemetry and no update check: CI reaches only the package registries.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
