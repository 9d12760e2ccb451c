import { contextBridge } from 'electron';

/** What the renderer may ask of the desktop shell; nothing else of Node or Electron is exposed. */
export interface DesktopBridge {
  platform: 'desktop';
  versions: { electron: string; chrome: string };
}

const bridge: DesktopBridge = {
  platform: 'desktop',
  versions: { electron: process.versions.electron ?? '', chrome: process.versions.chrome ?? '' },
};

contextBridge.exposeInMainWorld('cronbeam', bridge);
