import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrayIcon } from '../../desktop/main/tray/tray-model';

/** electron-builder's own loader and schema check (what `electron-builder --config` runs first). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: unknown): Promise<Record<string, any>>;
  validateConfiguration(config: unknown, debugLogger: unknown): Promise<void>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const root = join(__dirname, '../..');
const TRAY_ICONS: TrayIcon[] = ['ok', 'failing', 'offline', 'signed-out'];

describe('desktop packaging configuration (packaging itself needs the Electron binary and runs on a developer machine)', () => {
  let config: Record<string, any>;
  beforeAll(async () => {
    config = await getConfig(root, join(root, 'build/electron-builder.yml'), null);
  });

  it("passes electron-builder's schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('targets Linux AppImage and deb, macOS dmg, Windows nsis, with the app id and the cronbeam:// scheme', () => {
    expect(config.appId).toBe('io.cronbeam.desktop');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toBe('dmg');
    expect(config.win.target).toBe('nsis');
    expect(config.protocols).toEqual([{ name: 'Cronbeam', schemes: ['cronbeam'] }]);
  });

  it('ships an icon for every tray state where the app reads them, and the app icon', async () => {
    expect(config.extraResources).toEqual([{ from: 'build/icons/tray', to: 'icons/tray' }]);
    for (const icon of TRAY_ICONS) {
      const png = await readFile(join(root, 'build/icons/tray', `${icon}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    }
    expect((await stat(join(root, config.mac.icon))).size).toBeGreaterThan(0);
  });

  it('gives the macOS build the keychain entitlement keytar needs', async () => {
    const plist = await readFile(join(root, config.mac.entitlements), 'utf8');
    expect(plist).toContain('<key>keychain-access-groups</key>');
    expect(config.mac.hardenedRuntime).toBe(true);
  });
});
