import type { SitePage } from './site-page';

type Loader = () => Promise<{ default: SitePage }>;

/**
 * Every prerendered public page by path, each its own chunk so a visit loads
 * only the page it shows.
 */
export const SITE_PAGES: Readonly<Record<string, Loader>> = {
  '/': () => import('./pages/landing-page'),
  '/terms': () => import('./pages/terms-page'),
  '/privacy': () => import('./pages/privacy-page'),
  '/refund': () => import('./pages/refund-page'),
  '/contact': () => import('./pages/contact-page'),
  // Inside the app, /pricing is its own route (moves by the router); this is the prerendered page.
  '/pricing': () => import('../app/billing/pricing-site-page'),
  '/api-documentation': () => import('./pages/api-docs-page'),
  '/guides': () => import('./pages/guides-index-page'),
  '/guides/mcp-introduction': () => import('./guides/mcp-introduction'),
  '/guides/monitor-n8n': () => import('./guides/monitor-n8n'),
  '/guides/deploy-n8n': () => import('./guides/deploy-n8n'),
  '/guides/cronbeam-vs-traditional-tools': () => import('./guides/cronbeam-vs-traditional-tools'),
  '/guides/webhooks': () => import('./guides/webhooks'),
  '/guides/ci-cd': () => import('./guides/ci-cd'),
  '/guides/data-pipeline-monitoring': () => import('./guides/data-pipeline-monitoring'),
};

/** The page shown (with status 404) for any path nobody serves. */
export const loadNotFoundPage: Loader = () => import('./pages/not-found-page');

/** Old guide addresses and where they live now (answered with 301 by the server). */
export const SITE_REDIRECTS: Readonly<Record<string, string>> = {
  '/guides/data-pipelines': '/guides/data-pipeline-monitoring',
};

export function loadSitePage(path: string): Promise<{ default: SitePage }> {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return (SITE_PAGES[normalized] ?? loadNotFoundPage)();
}
