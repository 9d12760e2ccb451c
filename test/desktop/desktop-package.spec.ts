import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

jest.setTimeout(600_000);

const root = resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const asar = require('@electron/asar') as { listPackage(archive: string, options?: unknown): string[]; extractFile(archive: string, file: string): Buffer };

/** Packages the server needs and the tray app must not carry (nor the React app's, which the renderer bundles). */
const SERVER_PACKAGES = ['@nestjs/core', '@nestjs/common', 'typeorm', 'pg', '@electric-sql/pglite', 'stripe', '@aws-sdk/client-cognito-identity-provider', 'nodemailer', 'react', 'react-dom'];

/**
 * What `npm run package:desktop` puts into the installer, checked without the
 * Electron binary (which cannot be downloaded here): electron-builder packs
 * the real build with the real configuration into a Linux folder, with an
 * empty stand-in for Electron's own files. The app archive it writes is what
 * every installer ships.
 */
describe('the desktop package electron-builder ships', () => {
  let work: string;
  let files: string[];
  let archive: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cronbeam-desktop-package-'));
    const electronDist = join(work, 'electron');
    mkdirSync(electronDist);
    writeFileSync(join(electronDist, 'electron'), '#!/bin/sh\n');
    chmodSync(join(electronDist, 'electron'), 0o755);
    // jest runs with NODE_ENV=test, which would make Vite bundle React's development build.
    const env = { ...process.env, NODE_ENV: 'production' };
    execFileSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'error'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env });
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/electron-builder/cli.js'),
        '--linux', 'dir',
        '--config', 'build/electron-builder.yml',
        `-c.electronDist=${electronDist}`,
        // Rebuilding keytar needs Electron's headers from the network; packaging on a developer machine does it.
        '-c.npmRebuild=false',
        `-c.directories.output=${join(work, 'dist')}`,
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env },
    );
    archive = join(work, 'dist/linux-unpacked/resources/app.asar');
    files = asar.listPackage(archive).map((file) => file.replace(/\\/g, '/'));
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is the desktop package: its manifest, main process, preload and window', () => {
    const manifest = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as { name: string; main: string; dependencies: Record<string, string> };
    expect(manifest.name).toBe('@cronbeam/desktop');
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['eventsource-parser', 'zod']);
    expect(files).toEqual(expect.arrayContaining(['/out/main/index.js', '/out/preload/index.js', '/out/renderer/index.html', `/${manifest.main}`]));
  });

  it('carries the packages the main process loads and none of the server', () => {
    const packages = new Set(
      files
        .map((file) => file.split('/'))
        .filter((parts) => parts[1] === 'node_modules' && parts[2])
        .map((parts) => (parts[2]!.startsWith('@') ? `${parts[2]}/${parts[3] ?? ''}` : parts[2]!)),
    );
    expect([...packages]).toEqual(expect.arrayContaining(['zod', 'eventsource-parser']));
    expect(SERVER_PACKAGES.filter((name) => packages.has(name))).toEqual([]);
    // Nothing of the repository beyond the desktop package: no server code, no web sources, no tests.
    expect(files.filter((file) => /^\/(backend|web|shared|test|integrations|dist)\//.test(file))).toEqual([]);
    expect(readFileSync(join(work, 'dist/linux-unpacked/resources/icons/tray/ok.png')).subarray(1, 4).toString()).toBe('PNG');
  });
});
