// Copies what the bundler does not emit but n8n reads next to the compiled nodes: the
// SVG icons (referenced as file:../../icons/...) and each node's codex JSON.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(packageDir, 'dist');

function copyMatching(dir, test) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copyMatching(path, test);
    else if (test(entry.name)) {
      const target = join(outDir, relative(packageDir, path));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}

copyMatching(join(packageDir, 'icons'), (name) => name.endsWith('.svg'));
copyMatching(join(packageDir, 'nodes'), (name) => name.endsWith('.node.json'));
