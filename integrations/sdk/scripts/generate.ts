import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GENERATED_TYPES_FILE, progTypesSource } from './prog-types';

/**
 * Regenerates the SDK's types from the /prog document; run after changing a
 * /prog route or rule. With --check it writes nothing and fails when the
 * committed types differ from what the document gives now.
 */
async function main(): Promise<number> {
  const file = join(__dirname, '..', GENERATED_TYPES_FILE);
  const source = await progTypesSource();
  if (process.argv.includes('--check')) {
    if (readFileSync(file, 'utf8') === source) return 0;
    console.error(`${GENERATED_TYPES_FILE} differs from the /prog document: run npm run generate -w integrations/sdk`);
    return 1;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  process.stdout.write(`wrote ${file}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
