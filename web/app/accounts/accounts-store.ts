import type { AccountSummary } from '@cronbeam/shared/accounts/account-rules';
import { create } from 'zustand';
import { accountsApi } from '../api/accounts-api';
import { useCurrentAccount } from './current-account';

/** How a switch restarts the app (a full page load; the component tests watch it instead, as jsdom cannot load pages). */
export const appRestart = { to: (path: string): void => window.location.assign(path) };

interface AccountsState {
  accounts: AccountSummary[];
  loaded: boolean;
  /**
   * Reads the caller's accounts. A chosen account the caller no longer
   * belongs to (they were removed, it was deleted) gives way to the personal
   * one, and the app starts again there: what is on screen was refused.
   */
  load(): Promise<void>;
}

export const useAccounts = create<AccountsState>((set) => ({
  accounts: [],
  loaded: false,
  load: async () => {
    const accounts = await accountsApi.list();
    set({ accounts, loaded: true });
    const chosen = useCurrentAccount.getState().accountId;
    if (chosen && !accounts.some((a) => a.id === chosen)) {
      useCurrentAccount.getState().select(null);
      appRestart.to('/dashboard');
    }
  },
}));

/** The account the app acts in: the chosen one, else the personal one (undefined until the list has loaded). */
export function useActiveAccount(): AccountSummary | undefined {
  const accounts = useAccounts((s) => s.accounts);
  const chosen = useCurrentAccount((s) => s.accountId);
  return accounts.find((a) => a.id === chosen) ?? accounts.find((a) => a.personal);
}

/**
 * Acts in another account from now on. Every list on screen belongs to the
 * account it was loaded in, so the app starts again on the dashboard rather
 * than showing one account's jobs under another's name.
 */
export function switchAccount(account: AccountSummary): void {
  useCurrentAccount.getState().select(account.personal ? null : account.id);
  appRestart.to('/dashboard');
}
