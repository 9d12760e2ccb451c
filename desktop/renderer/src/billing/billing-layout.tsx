import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { isIdTokenExpired } from '../session/id-token';
import { useSession } from '../session/session-store';
import { ThemeToggle } from '../ui/theme-toggle';
import './billing.css';

/** The frame of /pricing, /success and /cancel: the brand, the way back in, the theme toggle. */
export function BillingLayout({ children }: { children: ReactNode }) {
  const signedIn = !isIdTokenExpired(useSession((s) => s.idToken));
  return (
    <div className="billing-page">
      <header className="billing-header">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◷
          </span>{' '}
          Cronbeam
        </Link>
        <nav className="billing-nav" aria-label="Site">
          <Link className="billing-nav-pricing" to="/pricing">
            Pricing
          </Link>
          {signedIn ? (
            <Link className="button button-secondary button-small" to="/dashboard">
              Dashboard
            </Link>
          ) : (
            <Link className="button button-secondary button-small" to="/login">
              Login
            </Link>
          )}
          <ThemeToggle />
        </nav>
      </header>
      <main className="billing-main">{children}</main>
    </div>
  );
}
