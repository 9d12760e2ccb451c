/**
 * Where the app keeps its session values (tokens, auth intent, the address a
 * verification code went to, whether the user signed out). The browser keeps them in cookies; the desktop
 * window will keep them in the OS keychain through the preload bridge. The
 * interface is synchronous because the app reads the session while routing;
 * a keychain variant serves reads from a snapshot loaded at window start.
 */
export const SESSION_KEYS = ['accessToken', 'idToken', 'refreshToken', 'tokenExpiry', 'authIntent', 'verificationEmail', 'signedOut'] as const;
export type SessionKey = (typeof SESSION_KEYS)[number];

export interface SessionStorage {
  get(key: SessionKey): string | null;
  set(key: SessionKey, value: string): void;
  remove(key: SessionKey): void;
}
