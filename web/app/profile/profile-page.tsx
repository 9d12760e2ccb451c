import { useState } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import { AccountSecuritySection } from '../account-security/account-security-section';
import { withRecentAuthentication } from '../account-security/recent-authentication';
import { authApi } from '../api/auth-api';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { billingApi } from '../billing/billing-api';
import { UserMenu } from '../dashboard/user-menu';
import { sessionStorageAdapter } from '../platform/platform';
import { useSession } from '../session/session-store';
import { useSessionExpiryCheck } from '../session/use-session-expiry';
import { Modal } from '../ui/modal';
import { ThemeToggle } from '../ui/theme-toggle';
import { notify } from '../ui/toasts';
import { AccountSection } from './account-section';
import { ApiKeysSection } from './api-keys-section';
import { SubscriptionSection } from './subscription-section';
import '../styles/dashboard.css';
import '../billing/billing.css';

const MENU = [
  { to: '/dashboard', label: 'Dashboard', icon: '▦' },
  { to: '/profile', label: 'Profile', icon: '☺' },
  { to: '/pricing', label: 'Upgrade Plan', icon: '★' },
];

/** /profile: account information, subscription, API keys and account deletion. Needs a valid session. */
export default function ProfilePage() {
  const valid = useSessionExpiryCheck();
  const navigate = useNavigate();
  const [navOpen, setNavOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!valid) return null;

  const logout = async () => {
    try {
      await authApi.logout(sessionStorageAdapter().get('refreshToken'));
    } catch {
      // The session ends on this device whatever the server answered.
    }
    useSession.getState().signOut();
    navigate('/login', { replace: true });
  };

  const deleteAccount = async () => {
    setBusy(true);
    try {
      await withRecentAuthentication(() => billingApi.deleteAccount());
      useSession.getState().clear();
      notify.success('Your account has been deleted.');
      navigate('/', { replace: true });
    } catch (error) {
      setBusy(false);
      setDeleting(false);
      if (!(error instanceof ApiRequestError && error.status === 401)) notify.error(`Failed to delete account: ${errorMessage(error)}`);
    }
  };

  return (
    <div className="dashboard-layout">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <nav className={navOpen ? 'side-nav side-nav-open' : 'side-nav'} aria-label="Profile menu">
        <div className="brand side-brand">
          <span className="brand-mark" aria-hidden="true">
            ◷
          </span>
          Cronbeam
        </div>
        <ul>
          {MENU.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end onClick={() => setNavOpen(false)} className={({ isActive }) => (isActive ? 'active' : undefined)}>
                <span className="nav-icon" aria-hidden="true">
                  {item.icon}
                </span>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {navOpen && <div className="nav-scrim" onClick={() => setNavOpen(false)} aria-hidden="true" />}
      <div className="dashboard-main">
        <header className="top-bar">
          <button type="button" className="icon-button nav-toggle" onClick={() => setNavOpen(!navOpen)} aria-label="Open menu">
            <span aria-hidden="true">☰</span>
          </button>
          <h1 className="top-title">Profile</h1>
          <div className="top-actions">
            <ThemeToggle />
            <UserMenu onLogout={() => void logout()} />
          </div>
        </header>
        <main className="dashboard-content profile-content" id="main-content" tabIndex={-1}>
          <AccountSection />
          <AccountSecuritySection />
          <SubscriptionSection />
          <ApiKeysSection />
          <section className="panel panel-padded profile-section" aria-labelledby="actions-title">
            <h2 id="actions-title">Account Actions</h2>
            <p className="muted">Deleting your account removes your jobs, their logs, your API keys and your subscription. It cannot be undone.</p>
            <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
              Delete Account
            </button>
          </section>
        </main>
      </div>
      {deleting && (
        <Modal
          title="Delete Account"
          onClose={() => setDeleting(false)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setDeleting(false)}>
                Keep My Account
              </button>
              <button type="button" className="button button-danger" onClick={() => void deleteAccount()} disabled={busy}>
                {busy ? 'Deleting...' : 'Delete My Account'}
              </button>
            </>
          }
        >
          <p>This permanently deletes your account, every job and its logs, and your API keys, and ends any paid subscription at once.</p>
        </Modal>
      )}
    </div>
  );
}
