import type { DesktopBridge, SessionSnapshot } from '@cronbeam/shared/desktop/ipc-contract';
import type { SessionKey, SessionStorage } from './session-storage';

/**
 * Session values in the desktop shell: the main process keeps them (tokens
 * in the OS keychain or its encrypted fallback), never cookies or
 * localStorage. Reads come from a snapshot loaded before the app renders and
 * replaced whenever main changes the session (a refresh, a sign-out from the tray).
 */
export class DesktopSessionStorage implements SessionStorage {
  private snapshot: SessionSnapshot = {};

  constructor(private readonly bridge: DesktopBridge) {}

  /** Loads main's session before the first render. */
  async load(): Promise<void> {
    this.snapshot = await this.bridge.invoke('session:load');
  }

  replace(snapshot: SessionSnapshot): void {
    this.snapshot = { ...snapshot };
  }

  get(key: SessionKey): string | null {
    return this.snapshot[key] ?? null;
  }

  set(key: SessionKey, value: string): void {
    this.snapshot = { ...this.snapshot, [key]: value };
    void this.bridge.invoke('session:set', { key, value }).catch(reportBridgeError);
  }

  remove(key: SessionKey): void {
    const rest = { ...this.snapshot };
    delete rest[key];
    this.snapshot = rest;
    void this.bridge.invoke('session:remove', { key }).catch(reportBridgeError);
  }
}

function reportBridgeError(error: unknown): void {
  console.error('Desktop session bridge:', error instanceof Error ? error.message : error);
}
