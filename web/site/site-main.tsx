import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { SiteLayout } from './layout/site-layout';
import { loadSitePage } from './site-pages';
import './site.css';

/**
 * Entry of the prerendered public pages: loads the one page module of this
 * path and hydrates the HTML the build already rendered for it. Links between
 * public pages are plain page loads, so this bundle carries no router.
 */
async function hydrate() {
  const { default: page } = await loadSitePage(window.location.pathname);
  // As a transition, React hydrates in slices and yields between them: the page is already painted and
  // readable, and hydrating a long one (the API reference: ~2,800 elements) in one task blocked input for
  // most of a second on a throttled phone.
  startTransition(() => {
    hydrateRoot(
      document.getElementById('root')!,
      <StrictMode>
        <SiteLayout meta={page.meta}>
          <page.Page />
        </SiteLayout>
      </StrictMode>,
    );
  });
}

void hydrate();
