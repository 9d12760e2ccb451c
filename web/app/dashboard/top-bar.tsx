import { Link } from 'react-router-dom';
import { AccountSwitcher } from '../accounts/account-switcher';
import { ThemeToggle } from '../ui/theme-toggle';
import { ConnectionBadge } from './connection-badge';
import { useDashboard } from './dashboard-store';
import { useBackendConnection } from './use-backend-connection';
import { UserMenu } from './user-menu';

/** Connection badge, account picker, job search, upgrade prompt (not on pro), theme and user menu. */
export function TopBar({ onLogout, onToggleNav }: { onLogout(): void; onToggleNav(): void }) {
  const connection = useBackendConnection();
  const search = useDashboard((s) => s.search);
  const setSearch = useDashboard((s) => s.setSearch);
  const plan = useDashboard((s) => s.stats?.plan);
  return (
    <header className="top-bar">
      <button type="button" className="icon-button nav-toggle" onClick={onToggleNav} aria-label="Open menu">
        <span aria-hidden="true">☰</span>
      </button>
      <ConnectionBadge state={connection} />
      <AccountSwitcher />
      <div className="top-search">
        <label htmlFor="job-search" className="visually-hidden">
          Search jobs
        </label>
        <input id="job-search" type="search" placeholder="Search jobs by name" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <div className="top-actions">
        {plan !== 'pro' && (
          <Link className="button button-primary button-small upgrade-button" to="/pricing">
            Get more Jobs &amp; Executions
          </Link>
        )}
        <ThemeToggle />
        <UserMenu onLogout={onLogout} />
      </div>
    </header>
  );
}
