import { z } from 'zod';
import { DESKTOP_SESSION_KEYS, type DesktopSessionKey, type IpcEventChannel, type IpcInvokeChannel } from './ipc-channels';
import { withoutTrailingSlashes } from '../text/trailing-slashes';

export { DESKTOP_SESSION_KEYS, IPC_EVENT_CHANNELS, IPC_INVOKE_CHANNELS } from './ipc-channels';
export type { DesktopSessionKey, IpcEventChannel, IpcInvokeChannel } from './ipc-channels';

/**
 * The one contract between the desktop main process and its window: every
 * channel the renderer may invoke, with the schema main validates its
 * argument against and the type it answers, and every event main pushes.
 * Preload and renderer derive their types from here; main derives its
 * handler signatures, so a channel cannot drift between the three.
 */

export type SessionSnapshot = Partial<Record<DesktopSessionKey, string>>;

/** Where the desktop app keeps its tokens: the OS keychain (keytar) or a file encrypted with Electron safeStorage. */
export type TokenStoreKind = 'keychain' | 'safe-storage';

export interface DesktopSettings {
  serverUrl: string;
  startAtLogin: boolean;
  mutedJobIds: string[];
  tokenStore: TokenStoreKind;
}

/** An https URL, or http on this machine (a self-hosted server under development). */
export const serverUrlSchema = z
  .string({ message: 'Server URL is required' })
  .trim()
  .max(2048, 'Server URL is too long')
  .pipe(z.url({ message: 'Server URL must be a valid URL' }))
  .refine((value) => {
    // Runs after a failed URL check too (zod reports every issue): an unparsable value is that issue's.
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
  }, 'Server URL must use https (http only for localhost)')
  .transform((value) => withoutTrailingSlashes(value));

const sessionKey = z.enum(DESKTOP_SESSION_KEYS, { message: 'Unknown session key' });
const jobId = z.uuid({ message: 'Job id must be a UUID' });

export const ipcInvokeSchemas = {
  'session:load': z.undefined(),
  'session:set': z.object({ key: sessionKey, value: z.string().max(16_384, 'Session value is too long') }).strict(),
  'session:remove': z.object({ key: sessionKey }).strict(),
  'settings:get': z.undefined(),
  'settings:set-server-url': z.object({ url: serverUrlSchema }).strict(),
  'settings:set-start-at-login': z.object({ enabled: z.boolean() }).strict(),
  'settings:set-job-muted': z.object({ jobId, muted: z.boolean() }).strict(),
  'app:open-external': z.object({ url: z.string().max(2048) }).strict(),
} as const satisfies Record<IpcInvokeChannel, z.ZodType>;

/** What each invoke channel answers. */
export interface IpcInvokeResults {
  'session:load': SessionSnapshot;
  'session:set': void;
  'session:remove': void;
  'settings:get': DesktopSettings;
  'settings:set-server-url': DesktopSettings;
  'settings:set-start-at-login': DesktopSettings;
  'settings:set-job-muted': DesktopSettings;
  'app:open-external': { opened: boolean };
}

/** The argument a channel takes, after validation. */
export type IpcInvokeArgument<C extends IpcInvokeChannel> = z.output<(typeof ipcInvokeSchemas)[C]>;
/** The argument the caller passes (before trimming and defaults). */
export type IpcInvokeInput<C extends IpcInvokeChannel> = z.input<(typeof ipcInvokeSchemas)[C]>;

/** Events main pushes to the window. */
export interface IpcEvents extends Record<IpcEventChannel, unknown> {
  /** The tokens changed in main (refresh, sign-out elsewhere): the window replaces its snapshot. */
  'session:changed': SessionSnapshot;
}

/** The API the preload exposes as `window.cronbeam`, and nothing else. */
export interface DesktopBridge {
  platform: 'desktop';
  /** Where the window sends its API calls (the app protocol forwards them to the configured server). */
  apiBase: string;
  invoke<C extends IpcInvokeChannel>(channel: C, ...arg: IpcInvokeInput<C> extends undefined ? [] : [IpcInvokeInput<C>]): Promise<IpcInvokeResults[C]>;
  on<E extends IpcEventChannel>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
}

/** The failure answer of an invoke whose argument did not validate (first issue's message). */
export class IpcValidationError extends Error {
  constructor(
    readonly channel: string,
    message: string,
  ) {
    super(`${channel}: ${message}`);
    this.name = 'IpcValidationError';
  }
}
