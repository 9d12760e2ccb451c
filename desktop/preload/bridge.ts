import type { DesktopBridge } from '@cronbeam/shared/desktop/ipc-contract';
import { API_BASE_ARGUMENT, IPC_EVENT_CHANNELS, IPC_INVOKE_CHANNELS } from '@cronbeam/shared/desktop/ipc-channels';

/** The piece of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererPort {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

/**
 * Builds `window.cronbeam`: invoke only the contract's channels, listen
 * only to its events. The renderer never gets ipcRenderer itself nor the
 * IPC event object (whose `sender` would let it send on any channel).
 */
export function createDesktopBridge(ipc: IpcRendererPort, argv: readonly string[]): DesktopBridge {
  const invokeChannels = new Set<string>(IPC_INVOKE_CHANNELS);
  const eventChannels = new Set<string>(IPC_EVENT_CHANNELS);
  const apiBase = argv.find((a) => a.startsWith(API_BASE_ARGUMENT))?.slice(API_BASE_ARGUMENT.length) ?? '/api';
  const bridge: DesktopBridge = {
    platform: 'desktop',
    apiBase,
    invoke: ((channel: string, ...args: unknown[]) => {
      if (!invokeChannels.has(channel)) return Promise.reject(new Error(`Unknown channel ${channel}`));
      return ipc.invoke(channel, ...args.slice(0, 1));
    }) as DesktopBridge['invoke'],
    on: ((event: string, listener: (payload: unknown) => void) => {
      if (!eventChannels.has(event)) throw new Error(`Unknown event ${event}`);
      const wrapped = (_event: unknown, payload: unknown) => listener(payload);
      ipc.on(event, wrapped);
      return () => void ipc.removeListener(event, wrapped);
    }) as DesktopBridge['on'],
  };
  return Object.freeze(bridge);
}
