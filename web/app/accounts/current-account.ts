import { create } from 'zustand';

/**
 * The account the web app acts in, chosen in the top bar. Kept on this device
 * (it is a preference, not a credential: the server checks membership on every
 * request) and cleared with the session. None chosen: the personal account.
 */
const STORAGE_KEY = 'cronbeam.accountId';

function stored(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

interface CurrentAccountState {
  accountId: string | null;
  select(accountId: string | null): void;
}

export const useCurrentAccount = create<CurrentAccountState>((set) => ({
  accountId: stored(),
  select: (accountId) => {
    try {
      if (accountId) localStorage.setItem(STORAGE_KEY, accountId);
      else localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Storage refused (private mode): the choice lasts until the page is reloaded.
    }
    set({ accountId });
  },
}));

/** The header that names the chosen account on an authenticated call (none: the server uses the personal account). */
export function accountHeader(): Record<string, string> {
  const accountId = useCurrentAccount.getState().accountId;
  return accountId ? { 'x-cronbeam-account': accountId } : {};
}
