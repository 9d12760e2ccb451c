import { CookieSessionStorage } from './cookie-storage';
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

/** The API base: from the runtime config when given, else the same-origin `/api`. */
export function apiBase(): string {
  const configured = window.CRONBEAM_CONFIG?.apiBase;
  return (configured && configured.replace(/\/+$/, '')) || '/api';
}

let storage: SessionStorage | null = null;

/** The session storage of this platform: cookies in the browser. */
export function sessionStorageAdapter(): SessionStorage {
  storage ??= new CookieSessionStorage();
  return storage;
}

/** Lets tests and the desktop window plug in their own storage. */
export function setSessionStorageAdapter(adapter: SessionStorage): void {
  storage = adapter;
}
