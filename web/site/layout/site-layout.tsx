import { useEffect, type ReactNode } from 'react';
import { SITE_NAME, type PageMeta } from '../site-meta';

/** Keeps the tab title and description right when the page is reached by client-side navigation. */
function usePageMeta(meta: PageMeta) {
  useEffect(() => {
    document.title = meta.title;
    let description = document.querySelector('meta[name="description"]');
    if (!description) {
      description = document.createElement('meta');
      description.setAttribute('name', 'description');
      document.head.appendChild(description);
    }
    description.setAttribute('content', meta.description);
  }, [meta]);
}

export function NavBar() {
  return (
    <header className="site-header">
      <nav className="site-nav" aria-label="Main">
        <a className="site-brand" href="/">
          <span aria-hidden="true" className="site-logo">
            ◷
          </span>
          {SITE_NAME}
        </a>
        <ul className="site-nav-links">
          <li>
            <a href="/guides">Guides</a>
          </li>
          <li>
            <a href="/pricing">Pricing</a>
          </li>
          <li>
            <a href="/api-documentation">API Docs</a>
          </li>
          <li>
            <a className="button button-primary" href="/login">
              Go to Dashboard
            </a>
          </li>
        </ul>
      </nav>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <nav aria-label="Footer">
        <ul>
          <li>
            <a href="/guides">Guides</a>
          </li>
          <li>
            <a href="/privacy">Privacy Policy</a>
          </li>
          <li>
            <a href="/terms">Terms of Service</a>
          </li>
          <li>
            <a href="/refund">Refund Policy</a>
          </li>
          <li>
            <a href="/contact">Contact Us</a>
          </li>
        </ul>
      </nav>
      <p>© {SITE_NAME}. Cron jobs for your HTTP endpoints.</p>
    </footer>
  );
}

/** Skip link, nav bar, the page's main content and the footer: the one frame of the public pages, /pricing and the checkout results. */
export function SiteFrame({ children }: { children: ReactNode }) {
  return (
    <div className="site">
      <a className="site-skip" href="#main">
        Skip to content
      </a>
      <NavBar />
      <main id="main" className="site-main">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

/** A public page: the site's frame, with the tab title and description kept to the page's own. */
export function SiteLayout({ meta, children }: { meta: PageMeta; children: ReactNode }) {
  usePageMeta(meta);
  return <SiteFrame>{children}</SiteFrame>;
}
