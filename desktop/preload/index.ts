import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopBridge } from './bridge';

// The only thing the window sees of Electron: the typed bridge (contextIsolation keeps the rest out of reach).
contextBridge.exposeInMainWorld('cronbeam', createDesktopBridge(ipcRenderer, process.argv));
