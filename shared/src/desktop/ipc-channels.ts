/**
 * Channel names of the desktop IPC contract, without their schemas: the
 * sandboxed preload imports only this file (it cannot load zod), the
 * schemas and types live in ipc-contract.ts.
 */
export const IPC_INVOKE_CHANNELS = [
  'session:load',
  'session:set',
  'session:remove',
  'settings:get',
  'settings:set-server-url',
  'settings:set-start-at-login',
  'settings:set-job-muted',
  'app:open-external',
] as const;
export type IpcInvokeChannel = (typeof IPC_INVOKE_CHANNELS)[number];

export const IPC_EVENT_CHANNELS = ['session:changed'] as const;
export type IpcEventChannel = (typeof IPC_EVENT_CHANNELS)[number];

/** Session values the window may keep (the same keys as the web app's cookies). */
export const DESKTOP_SESSION_KEYS = ['accessToken', 'idToken', 'refreshToken', 'tokenExpiry', 'authIntent', 'verificationEmail', 'signedOut'] as const;
export type DesktopSessionKey = (typeof DESKTOP_SESSION_KEYS)[number];

/** The window argument the preload reads the API base from (a sandboxed preload sees process.argv, not main's state). */
export const API_BASE_ARGUMENT = '--cronbeam-api-base=';
