import { NavLink } from 'react-router-dom';

const SECTIONS = [
  { to: '/dashboard', label: 'Dashboard', icon: '▦', end: true },
  { to: '/dashboard/jobs', label: 'Cron Jobs', icon: '◷', end: false },
  { to: '/dashboard/create', label: 'Create Job', icon: '+', end: false },
  { to: '/dashboard/monitoring', label: 'Monitoring', icon: '◉', end: false },
  { to: '/dashboard/monitors', label: 'Monitors', icon: '♥', end: false },
  { to: '/dashboard/alerts', label: 'Alert Channels', icon: '✉', end: false },
  { to: '/dashboard/status-pages', label: 'Status Pages', icon: '▤', end: false },
  { to: '/dashboard/maintenance', label: 'Maintenance', icon: '⏸', end: false },
  { to: '/dashboard/audit', label: 'Audit Log', icon: '☰', end: false },
  { to: '/dashboard/n8n', label: 'Self-Host N8N', icon: '⬢', end: false },
  { to: '/dashboard/team', label: 'Team', icon: '⚇', end: false },
];

/**
 * Feedback and a free support call: both reach the team through the contact
 * form, its subject filled in, in a tab of their own so the dashboard stays open.
 */
export const SUPPORT_LINKS = [
  { label: 'Send feedback', subject: 'Feedback' },
  { label: 'Book a free support call', subject: 'Free support call' },
] as const;

/** The side menu: one link per dashboard section, the product's other pages, feedback and support. */
export function SideNav({ open, onNavigate }: { open: boolean; onNavigate(): void }) {
  return (
    <nav className={open ? 'side-nav side-nav-open' : 'side-nav'} aria-label="Dashboard sections">
      <div className="brand side-brand">
        <span className="brand-mark" aria-hidden="true">
          ◷
        </span>
        Cronbeam
      </div>
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.to}>
            <NavLink to={section.to} end={section.end} onClick={onNavigate} className={({ isActive }) => (isActive ? 'active' : undefined)}>
              <span className="nav-icon" aria-hidden="true">
                {section.icon}
              </span>
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
      <div className="side-links">
        <a href="/pricing">Pricing</a>
        <a href="/api-documentation" target="_blank" rel="noreferrer">
          API documentation
        </a>
        <a href="/guides" target="_blank" rel="noreferrer">
          Guides
        </a>
        {SUPPORT_LINKS.map((link) => (
          <a key={link.label} href={`/contact?${new URLSearchParams({ subject: link.subject }).toString()}`} target="_blank" rel="noreferrer">
            {link.label}
          </a>
        ))}
      </div>
    </nav>
  );
}
