import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import { SIGNED_OUT_KEY } from '@cronbeam/shared/site/host-guard';
import { create } from 'zustand';
import { useCurrentAccount } from '../accounts/current-account';
import { sessionStorageAdapter } from '../platform/platform';


interface SessionState {
  accessToken: string | null;
  idToken: string | null;
  /** Reads the tokens the platform storage holds (at start, and in tests). */
  hydrate(): void;
  signIn(tokens: Pick<TokenResponse, 'access_token' | 'id_token' | 'expires_in'> & { refresh_token?: string }): void;
  /** Clears every session value together, as logout and expiry require. */
  clear(): void;
  /**
   * Clears the session as the user's own sign-out, and remembers that it was:
   * a later visit to a page that needs a session says "sign in", not "your
   * session has expired".
   */
  signOut(): void;
}

const TOKEN_KEYS = ['accessToken', 'idToken', 'refreshToken', 'tokenExpiry'] as const;

/** The signed-in session: tokens in memory, persisted through the platform's storage. */
export const useSession = create<SessionState>((set, get) => ({
  accessToken: sessionStorageAdapter().get('accessToken'),
  idToken: sessionStorageAdapter().get('idToken'),
  hydrate: () => {
    const storage = sessionStorageAdapter();
    set({ accessToken: storage.get('accessToken'), idToken: storage.get('idToken') });
  },
  signIn: (tokens) => {
    const storage = sessionStorageAdapter();
    storage.set('accessToken', tokens.access_token);
    storage.set('idToken', tokens.id_token);
    if (tokens.refresh_token) storage.set('refreshToken', tokens.refresh_token);
    storage.set('tokenExpiry', String(Date.now() + tokens.expires_in * 1000));
    storage.remove(SIGNED_OUT_KEY);
    set({ accessToken: tokens.access_token, idToken: tokens.id_token });
  },
  clear: () => {
    const storage = sessionStorageAdapter();
    for (const key of TOKEN_KEYS) storage.remove(key);
    // The next person to sign in here starts in their own account.
    useCurrentAccount.getState().select(null);
    set({ accessToken: null, idToken: null });
  },
  signOut: () => {
    get().clear();
    sessionStorageAdapter().set(SIGNED_OUT_KEY, '1');
  },
}));
