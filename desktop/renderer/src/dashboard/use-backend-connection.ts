import { useEffect } from 'react';
import { create } from 'zustand';
import { authApi } from '../api/auth-api';
import { withRetry } from '../api/retry';

export type ConnectionState = 'checking' | 'connected' | 'disconnected';

interface ConnectionStore {
  state: ConnectionState;
  check(): Promise<void>;
}

/** The backend's reachability, shared by the top bar badge and the System Status panel. */
export const useConnection = create<ConnectionStore>((set) => ({
  state: 'checking',
  check: async () => {
    set({ state: 'checking' });
    try {
      await withRetry(authApi.ping);
      set({ state: 'connected' });
    } catch {
      set({ state: 'disconnected' });
    }
  },
}));

/** Checking, then connected, or disconnected after 4 failed pings with waits of 1, 2 and 4 s (a single lost ping is not an outage). */
export function useBackendConnection(): ConnectionState {
  const { state, check } = useConnection();
  useEffect(() => {
    void check();
  }, [check]);
  return state;
}
