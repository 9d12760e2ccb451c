import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const packageDir = resolve(__dirname, '../../integrations/n8n-node');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

/** What a plain Node process (as n8n's loader) finds in one file the n8n section lists. */
interface LoadedEntry {
  file: string;
  kind: 'credential' | 'node';
  name: string;
  icons: string[];
  credentialNames: string[];
  credentialTests: Array<string | null>;
  credentialRequestTest: string | null;
  methods: string[];
  hasExecute: boolean;
  hasPoll: boolean;
}

/**
 * The package as n8n installs it: bundled into dist/ (build.mjs), then loaded by
 * a separate Node process (no TypeScript, no jest) from the paths in the
 * package.json n8n section, icons and codex files beside the code.
 */
describe('n8n package build', () => {
  let loaded: LoadedEntry[];

  beforeAll(() => {
    execFileSync(process.execPath, [join(packageDir, 'build.mjs')], { stdio: 'pipe' });
    const loader = `
      const { dirname, resolve } = require('node:path');
      const manifest = require('./package.json');
      const entries = [...manifest.n8n.credentials.map((f) => ['credential', f]), ...manifest.n8n.nodes.map((f) => ['node', f])];
      const out = entries.map(([kind, file]) => {
        const exported = Object.values(require(resolve(file)));
        if (exported.length !== 1) throw new Error(file + ' must export exactly one class');
        const instance = new exported[0]();
        const description = kind === 'node' ? instance.description : instance;
        const icon = description.icon;
        const icons = (typeof icon === 'string' ? [icon] : [icon.light, icon.dark]).map((i) => resolve(dirname(file), i.replace(/^file:/, '')));
        return {
          file, kind, name: description.name, icons,
          credentialNames: (description.credentials || []).map((c) => c.name),
          credentialTests: (description.credentials || []).map((c) => c.testedBy ?? null),
          credentialRequestTest: kind === 'credential' ? description.test?.request?.url ?? null : null,
          methods: Object.entries(instance.methods || {}).flatMap(([group, fns]) => Object.keys(fns).map((fn) => group + '.' + fn)),
          hasExecute: typeof instance.execute === 'function',
          hasPoll: typeof instance.poll === 'function',
        };
      });
      process.stdout.write(JSON.stringify(out));
    `;
    loaded = JSON.parse(execFileSync(process.execPath, ['-e', loader], { cwd: packageDir, encoding: 'utf8' }));
  });

  it('is a community-node package: name, keyword, dist-only files, n8n-workflow as a peer', () => {
    expect(manifest.name).toBe('n8n-nodes-cronbeam');
    expect(manifest.keywords).toContain('n8n-community-node-package');
    expect(manifest.files).toEqual(['dist']);
    expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': expect.any(String) });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.n8n.n8nNodesApiVersion).toBe(1);
  });

  it('loads every listed credential and node from dist in plain Node, with its icons beside it', () => {
    expect(loaded.map((entry) => [entry.kind, entry.name])).toEqual([
      ['credential', 'cronbeamApi'],
      ['node', 'cronbeam'],
      ['node', 'cronbeamTrigger'],
    ]);
    for (const entry of loaded) {
      expect(entry.file.startsWith('dist/')).toBe(true);
      for (const icon of entry.icons) expect(existsSync(icon) && readFileSync(icon, 'utf8').includes('<svg')).toBe(true);
    }
    const [credential, action, trigger] = loaded;
    // The credential is tested by its own declarative request, not by a node's function (n8n's scanner refuses the helper those get).
    expect(credential.credentialRequestTest).toBe('/prog/jobs');
    expect(action).toMatchObject({ credentialNames: ['cronbeamApi'], credentialTests: [null], hasExecute: true });
    expect(action.methods).toEqual(expect.arrayContaining(['listSearch.searchJobs']));
    expect(trigger).toMatchObject({ credentialNames: ['cronbeamApi'], credentialTests: [null], hasPoll: true });
    expect(trigger.methods).toEqual(expect.arrayContaining(['loadOptions.getJobs']));
    for (const node of [action, trigger]) {
      const codex = join(packageDir, node.file.replace(/\.js$/, '.json'));
      expect(JSON.parse(readFileSync(codex, 'utf8')).node).toBe(`n8n-nodes-cronbeam.${node.name}`);
    }
  });

  it('needs nothing at run time but n8n-workflow: the shared rules and the SDK core it uses are compiled in, every relative require stays in dist', () => {
    const files = (readdirSync(join(packageDir, 'dist'), { recursive: true }) as string[]).filter((file) => file.endsWith('.js'));
    const requires = files.flatMap((file) => [...readFileSync(join(packageDir, 'dist', file), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => ({ file, id: m[1] })));
    expect([...new Set(requires.filter(({ id }) => !id.startsWith('.')).map(({ id }) => id))]).toEqual(['n8n-workflow']);
    for (const { file, id } of requires.filter(({ id }) => id.startsWith('.'))) {
      const target = resolve(join(packageDir, 'dist', dirname(file)), id);
      expect(target.startsWith(join(packageDir, 'dist'))).toBe(true);
      expect(existsSync(target)).toBe(true);
    }
    const code = files.map((file) => readFileSync(join(packageDir, 'dist', file), 'utf8')).join('\n');
    // The SDK's path builder and the job name limit of the shared rules.
    expect(code).toContain('encodeURIComponent');
    expect(code).toMatch(/nameMaxLength/);
  });
});
