// Runs n8n's community package scanner offline: its analyzePackage on the
// package source (the files n8n lints in the attested source checkout) and on
// the unpacked tarball (compiled .js and package.json), as its CLI does after
// downloading both. Exits 1 when either has an error.
// Usage: node .ci/n8n-scan.mjs <scanner package dir> <source dir> <unpacked tarball dir>
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [scannerDir, sourceDir, tarballDir] = process.argv.slice(2).map((dir) => resolve(dir));
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(pathToFileURL(`${scannerDir}/scanner/scanner.mjs`).href);
let passed = true;
for (const [label, dir, patterns] of [
  ['source', sourceDir, SOURCE_FILE_PATTERNS],
  ['tarball', tarballDir, ['**/*.js', 'package.json']],
]) {
  const result = await analyzePackage(dir, patterns);
  process.stdout.write(`${label}: ${result.passed ? 'passed' : `FAILED (${result.message})`}\n`);
  if (result.details) process.stdout.write(`${result.details}\n`);
  passed &&= result.passed;
}
process.exit(passed ? 0 : 1);
