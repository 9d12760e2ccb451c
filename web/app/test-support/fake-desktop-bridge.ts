import type { DesktopBridge, DesktopSettings, IpcEvents } from '@cronbeam/shared/desktop/ipc-contract';

/**
 * A stand-in for the preload's `window.cronbeam` in component tests: records
 * every invoke and lets a test push main's events. Installed on import, so a
 * spec imports it before the app's modules pick their platform.
 */
export interface FakeBridge extends DesktopBridge {
  calls: Array<[string, unknown]>;
  settings: DesktopSettings;
  emit<E extends keyof IpcEvents>(event: E, payload: IpcEvents[E]): void;
  /** The next invoke of `channel` fails with this message (as main's validation would). */
  failNext(channel: string, message: string): void;
}

function createFakeBridge(): FakeBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const failures = new Map<string, string>();
  const bridge: FakeBridge = {
    platform: 'desktop',
    apiBase: 'app://cronbeam/api',
    calls: [],
    settings: { serverUrl: 'https://app.cronbeam.io', startAtLogin: false, mutedJobIds: [], tokenStore: 'safe-storage' },
    invoke: (async (channel: string, arg?: unknown) => {
      bridge.calls.push([channel, arg]);
      const failure = failures.get(channel);
      if (failure) {
        failures.delete(channel);
        throw new Error(`Error invoking remote method '${channel}': IpcValidationError: ${channel}: ${failure}`);
      }
      if (channel === 'session:load') return {};
      if (channel === 'settings:get') return bridge.settings;
      if (channel === 'settings:set-server-url') return (bridge.settings = { ...bridge.settings, serverUrl: (arg as { url: string }).url });
      if (channel === 'settings:set-start-at-login') return (bridge.settings = { ...bridge.settings, startAtLogin: (arg as { enabled: boolean }).enabled });
      if (channel === 'settings:set-job-muted') {
        const { jobId, muted } = arg as { jobId: string; muted: boolean };
        const others = bridge.settings.mutedJobIds.filter((id) => id !== jobId);
        return (bridge.settings = { ...bridge.settings, mutedJobIds: muted ? [...others, jobId] : others });
      }
      return undefined;
    }) as DesktopBridge['invoke'],
    on: ((event: string, listener: (payload: unknown) => void) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return () => listeners.get(event)?.delete(listener);
    }) as DesktopBridge['on'],
    emit: (event, payload) => listeners.get(event)?.forEach((l) => l(payload)),
    failNext: (channel, message) => failures.set(channel, message),
  };
  return bridge;
}

export const fakeBridge = createFakeBridge();
window.cronbeam = fakeBridge;
