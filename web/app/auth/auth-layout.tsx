import type { ReactNode } from 'react';
import { ThemeToggle } from '../ui/theme-toggle';

/** The frame of the sign-in screens: the product's pitch beside a card with the form. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="auth-page">
      <aside className="auth-pitch" aria-hidden="true">
        <div className="brand brand-large">
          <span className="brand-mark">◷</span> Cronbeam
        </div>
        <p className="auth-pitch-lead">Schedule HTTP requests on cron. Watch every run. Sleep well.</p>
        <ul className="auth-pitch-points">
          <li>Runs to the second, in UTC</li>
          <li>Logs, responses and retries for every execution</li>
          <li>Email alerts when a job fails</li>
        </ul>
      </aside>
      <main className="auth-main">
        <div className="auth-topbar">
          <span className="brand auth-brand-small">
            <span className="brand-mark" aria-hidden="true">◷</span> Cronbeam
          </span>
          <ThemeToggle />
        </div>
        <section className="auth-card" aria-labelledby="auth-title">
          <h1 id="auth-title">{title}</h1>
          {subtitle && <p className="auth-subtitle">{subtitle}</p>}
          {children}
        </section>
      </main>
    </div>
  );
}

/** A message box above the form; `role=alert` so screen readers announce it. */
export function FormAlert({ kind, children }: { kind: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
