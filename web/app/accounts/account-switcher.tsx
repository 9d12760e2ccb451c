import { useEffect } from 'react';
import { useAccounts, useActiveAccount, switchAccount } from './accounts-store';

/**
 * The top bar's account picker: which account the dashboard shows and acts
 * in. Hidden while the user belongs to their personal account alone; a viewer
 * sees that the account is read-only for them.
 */
export function AccountSwitcher() {
  const accounts = useAccounts((s) => s.accounts);
  const load = useAccounts((s) => s.load);
  const active = useActiveAccount();

  useEffect(() => {
    // A failed load leaves the picker hidden; the dashboard's own calls report the connection.
    load().catch(() => undefined);
  }, [load]);

  if (accounts.length < 2 || !active) return null;
  return (
    <div className="account-switcher">
      <label htmlFor="account-switcher" className="visually-hidden">
        Account
      </label>
      <select
        id="account-switcher"
        value={active.id}
        onChange={(event) => {
          const next = accounts.find((a) => a.id === event.target.value);
          if (next && next.id !== active.id) switchAccount(next);
        }}
      >
        {accounts.map((account) => (
          <option key={account.id} value={account.id}>
            {account.personal ? `${account.name} (personal)` : `${account.name} (${account.role})`}
          </option>
        ))}
      </select>
      {active.role === 'viewer' && <span className="status-badge status-paused">Read only</span>}
    </div>
  );
}
