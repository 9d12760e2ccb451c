import { CookieSessionStorage } from './cookie-storage';
import { desktopBridge } from './desktop-bridge';
import { DesktopSessionStorage } from './desktop-session-storage';
import type { SessionStorage } from './session-storage';

/** Runtime settings a host page may inject before the bundle loads (window.CRONBEAM_CONFIG). */
export interface RuntimeConfig {
  apiBase?: string;
}

declare global {
  interface Window {
    CRONBEAM_CONFIG?: RuntimeConfig;
  }
}

/** The API base: the desktop shell's (from its preload), else the runtime config's, else the same-origin `/api`. */
export function apiBase(): string {
  const configured = desktopBridge()?.apiBase ?? window.CRONBEAM_CONFIG?.apiBase;
  return (configured && configured.replace(/\/+$/, '')) || '/api';
}

let storage: SessionStorage | null = null;

/** Where the build prerenders a public page there is no browser, and so no session. */
const NO_SESSION: SessionStorage = { get: () => null, set: () => undefined, remove: () => undefined };

/** The session storage of this platform: cookies in the browser, the main process in the desktop shell. */
export function sessionStorageAdapter(): SessionStorage {
  if (typeof document === 'undefined') return NO_SESSION;
  const bridge = desktopBridge();
  storage ??= bridge ? new DesktopSessionStorage(bridge) : new CookieSessionStorage();
  return storage;
}

/** Lets tests and the desktop window plug in their own storage. */
export function setSessionStorageAdapter(adapter: SessionStorage): void {
  storage = adapter;
}
