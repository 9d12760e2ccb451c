import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, Menu, nativeImage, net, Notification, protocol, safeStorage, shell, Tray } from 'electron';
import { deepLinkInArgs, DEEP_LINK_SCHEME, routeForDeepLink } from './deep-link';
import { DesktopApp, type SystemPort, type TrayPort, type WindowsPort } from './desktop-app';
import { registerIpcHandlers } from './ipc/ipc-registry';
import type { NotificationPort } from './notify/notifier';
import { type KeychainModule, openTokenVault } from './session/token-vault';
import { DEFAULT_SERVER_URL, SettingsStore } from './settings/settings-store';
import type { TrayIcon, TrayMenuItem } from './tray/tray-model';
import { createAppProtocolHandler } from './windows/app-protocol';
import { APP_ORIGIN, APP_SCHEME, isAppUrl, secureWebPreferences } from './windows/window-security';

/**
 * Composition root of the desktop shell: Electron adapters for the ports of
 * DesktopApp. Everything with behaviour lives in the units it wires (tested
 * under Node); this file only translates to Electron calls.
 */

const devServerUrl = process.env.ELECTRON_RENDERER_URL;
const resources = app.isPackaged ? process.resourcesPath : join(__dirname, '../../../build');

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: false } },
]);

if (!app.requestSingleInstanceLock()) app.quit();
else void main();

function loadKeytar(): KeychainModule {
  // Optional native dependency: absent or unbuildable on some machines, then the safeStorage vault is used.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('keytar') as KeychainModule;
}

function trayIcon(icon: TrayIcon) {
  return nativeImage.createFromPath(join(resources, 'icons', 'tray', `${icon}.png`));
}

function toMenu(items: TrayMenuItem[], onAction: Parameters<TrayPort['render']>[1]): Electron.MenuItemConstructorOptions[] {
  return items.map((item): Electron.MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'checkbox':
        return { type: 'checkbox', label: item.label, checked: item.checked, click: () => onAction(item.action) };
      case 'submenu':
        return { label: item.label, submenu: toMenu(item.items, onAction) };
      case 'item':
        return { label: item.label, enabled: item.enabled, click: item.action ? () => onAction(item.action!) : undefined };
    }
  });
}

async function main(): Promise<void> {
  await app.whenReady();
  const userData = app.getPath('userData');
  const settings = await SettingsStore.open(join(userData, 'settings.json'), process.env.CRONBEAM_SERVER_URL || DEFAULT_SERVER_URL);
  const vault = await openTokenVault(loadKeytar, safeStorage, join(userData, 'session.bin'));

  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      rendererDir: join(__dirname, '../renderer'),
      serverUrl: () => process.env.CRONBEAM_SERVER_URL || settings.value.serverUrl,
      fetch: (input, init) => net.fetch(input as string, init),
    }),
  );
  if (!app.isDefaultProtocolClient(DEEP_LINK_SCHEME)) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);

  let window: BrowserWindow | null = null;
  const appUrl = (route: string) => `${devServerUrl ?? APP_ORIGIN}${route}`;

  const windows: WindowsPort = {
    show(route) {
      if (window && !window.isDestroyed()) {
        void window.loadURL(appUrl(route));
        if (window.isMinimized()) window.restore();
        window.show();
        window.focus();
        return;
      }
      window = new BrowserWindow({
        width: 1200,
        height: 800,
        show: false,
        title: 'Cronbeam',
        webPreferences: secureWebPreferences(join(__dirname, '../preload/index.js')),
      });
      window.once('ready-to-show', () => window?.show());
      // Navigation stays inside the app; new windows never open, allowed links go to the browser.
      window.webContents.on('will-navigate', (event, url) => {
        if (!isAppUrl(url, devServerUrl)) event.preventDefault();
      });
      window.webContents.setWindowOpenHandler(({ url }) => {
        void desktop.appHandlers()['app:open-external']({ url });
        return { action: 'deny' };
      });
      window.on('closed', () => (window = null));
      void window.loadURL(appUrl(route));
    },
    broadcast(event, payload) {
      for (const w of BrowserWindow.getAllWindows()) w.webContents.send(event, payload);
    },
  };

  let tray: Tray | null = null;
  const trayPort: TrayPort = {
    render(view, onAction) {
      tray ??= new Tray(trayIcon(view.icon));
      tray.setImage(trayIcon(view.icon));
      tray.setToolTip(view.tooltip);
      tray.setContextMenu(Menu.buildFromTemplate(toMenu(view.menu, onAction)));
    },
  };

  const notifications: NotificationPort = {
    show({ title, body, onClick }) {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body });
      notification.on('click', onClick);
      notification.show();
    },
  };

  const system: SystemPort = {
    setStartAtLogin: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled }),
    openExternal: (url) => shell.openExternal(url),
    // macOS Focus, Windows Focus assist and GNOME's do-not-disturb hold native notifications themselves;
    // Electron exposes no query for them, so there is nothing more to ask here.
    isDoNotDisturb: () => false,
    quit: () => app.quit(),
  };

  const desktop = new DesktopApp({
    settings,
    vault,
    tray: trayPort,
    windows,
    notifications,
    system,
    onError: (error) => console.error('[cronbeam]', error instanceof Error ? error.message : error),
  });
  registerIpcHandlers(
    ipcMain,
    (url) => url !== undefined && isAppUrl(url, devServerUrl),
    desktop.sessionHandlers(),
    desktop.settingsHandlers(),
    desktop.appHandlers(),
  );

  const openDeepLink = (argv: readonly string[]) => {
    const link = deepLinkInArgs(argv);
    const route = link ? routeForDeepLink(link) : null;
    if (route) windows.show(route);
    return route !== null;
  };
  app.on('second-instance', (_event, argv) => {
    if (!openDeepLink(argv)) windows.show('/dashboard');
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const route = routeForDeepLink(url);
    if (route) windows.show(route);
  });
  // Closing the window keeps the app in the tray; Quit in the tray menu ends it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => desktop.dispose());

  await desktop.start();
  // Signed in from an earlier run: the app starts in the tray only, unless launched by a deep link.
  if (desktop.session.state === 'signed-in') openDeepLink(process.argv);
}
