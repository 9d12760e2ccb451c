import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILDS, buildIfStale } from '../../scripts/build-if-stale';

/**
 * `npm start` skips a build only when its outputs were made from exactly the
 * current sources. Checked with the real build list and hashing on a small
 * repository-shaped tree; the build itself is replaced by one that writes the
 * outputs, which is all the decision depends on.
 */
describe('npm start: builds only what is stale', () => {
  let root: string;
  let failing: string | undefined;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const run = (dir: string, script: string) => {
    if (script === failing) throw new Error(`npm run ${script} failed`);
    const build = BUILDS.find((b) => b.script === script)!;
    for (const output of build.outputs) {
      fs.mkdirSync(path.dirname(path.join(dir, output)), { recursive: true });
      fs.writeFileSync(path.join(dir, output), 'built');
    }
  };
  const start = () => buildIfStale(root, BUILDS, run);

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-start-'));
    failing = undefined;
    write('package.json', '{}');
    write('package-lock.json', '{}');
    write('node_modules/.package-lock.json', '{"v":1}');
    write('node_modules/vite/index.js', 'x');
    write('.swcrc', '{}');
    write('backend/src/main.ts', 'main');
    write('shared/src/rules.ts', 'rules');
    write('web/app/app.tsx', 'app');
    write('web/vite.config.ts', 'config');
    write('test/api/a.e2e-spec.ts', 'test');
    write('docs/adr/0001.md', 'doc');
    write('README.md', 'readme');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('builds everything the first time, then nothing while the sources are unchanged', () => {
    expect(start()).toEqual(['build:backend', 'build:web']);
    expect(start()).toEqual([]);
    expect(start()).toEqual([]);
  });

  it('rebuilds on a changed byte, whatever the modification times say (as after a git pull or checkout)', () => {
    start();
    const file = path.join(root, 'shared/src/rules.ts');
    const { atime, mtime } = fs.statSync(file);
    write('shared/src/rules.ts', 'rulez');
    fs.utimesSync(file, atime, mtime);
    // The web build prerenders pages from the backend's routes, so it depends on backend and shared code too.
    expect(start()).toEqual(['build:backend', 'build:web']);
    // Same bytes back, newer time: the stamp of the last build still matches the sources.
    write('shared/src/rules.ts', 'rulez');
    expect(start()).toEqual([]);
  });

  it('rebuilds only the web app for a web source, and for sources in a folder it did not know (a moved app)', () => {
    start();
    write('web/app/app.tsx', 'app 2');
    expect(start()).toEqual(['build:web']);
    write('mobile/src/page.tsx', 'page');
    expect(start()).toEqual(['build:web']);
    fs.renameSync(path.join(root, 'mobile/src/page.tsx'), path.join(root, 'mobile/src/renamed.tsx'));
    expect(start()).toEqual(['build:web']);
    fs.rmSync(path.join(root, 'mobile'), { recursive: true });
    expect(start()).toEqual(['build:web']);
  });

  it('rebuilds both after a dependency change, and neither for tests, docs or the README', () => {
    start();
    write('test/api/a.e2e-spec.ts', 'test 2');
    write('docs/adr/0001.md', 'doc 2');
    write('README.md', 'readme 2');
    write('node_modules/vite/index.js', 'y');
    write('dist/generated/prog-openapi.json', '{"regenerated":true}');
    expect(start()).toEqual([]);
    write('node_modules/.package-lock.json', '{"v":2}');
    expect(start()).toEqual(['build:backend', 'build:web']);
  });

  it('rebuilds when an output is missing, and never trusts a build that failed', () => {
    start();
    fs.rmSync(path.join(root, 'dist/backend'), { recursive: true });
    expect(start()).toEqual(['build:backend']);

    write('web/app/app.tsx', 'broken');
    failing = 'build:web';
    expect(start).toThrow('npm run build:web failed');
    expect(fs.existsSync(path.join(root, BUILDS[1]!.stamp))).toBe(false);
    failing = undefined;
    expect(start()).toEqual(['build:web']);
  });

  it('empties the backend output first, so modules of deleted sources do not linger', () => {
    start();
    write('dist/backend/src/removed-module.js', 'old');
    write('backend/src/main.ts', 'main 2');
    start();
    expect(fs.existsSync(path.join(root, 'dist/backend/src/removed-module.js'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'dist/backend/src/main.js'))).toBe(true);
  });
});
