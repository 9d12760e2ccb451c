import { renderToString } from 'react-dom/server';
import { SiteLayout } from './layout/site-layout';
import { loadNotFoundPage, SITE_PAGES } from './site-pages';

export { SITE_REDIRECTS } from './site-pages';
import { API_ORIGIN_PLACEHOLDER, SITE_NAME, SITE_ORIGIN_PLACEHOLDER, type PageMeta } from './site-meta';
import type { SitePage } from './site-page';

/** One page as the build writes it: the tags for <head> and the HTML of the app root. */
export interface PrerenderedPage {
  path: string;
  status: 200 | 404;
  head: string;
  body: string;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Title, description, canonical link, Open Graph and Twitter cards, JSON-LD. */
export function headTags(meta: PageMeta, status: number): string {
  const url = `${SITE_ORIGIN_PLACEHOLDER}${meta.path === '/' ? '/' : meta.path}`;
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    meta.keywords?.length ? `<meta name="keywords" content="${escapeHtml(meta.keywords.join(', '))}" />` : '',
    status === 404 ? '<meta name="robots" content="noindex" />' : `<link rel="canonical" href="${url}" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:type" content="${meta.type ?? 'website'}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:url" content="${url}" />`,
    '<meta name="twitter:card" content="summary" />',
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}" />`,
    `<meta name="cronbeam:site-origin" content="${SITE_ORIGIN_PLACEHOLDER}" />`,
    `<meta name="cronbeam:api-origin" content="${API_ORIGIN_PLACEHOLDER}" />`,
    '<meta name="theme-color" content="#0f766e" />',
  ];
  if (meta.jsonLd) {
    // '<' is escaped so no text in the data can close the script element.
    tags.push(`<script type="application/ld+json">${JSON.stringify(meta.jsonLd).replace(/</g, '\\u003c')}</script>`);
  }
  return tags.filter(Boolean).join('\n    ');
}

function render(page: SitePage): string {
  return renderToString(
    <SiteLayout meta={page.meta}>
      <page.Page />
    </SiteLayout>,
  );
}

/** Renders every public page and the not-found page, as the build's prerender step writes them. */
export async function prerenderSitePages(): Promise<PrerenderedPage[]> {
  const pages: PrerenderedPage[] = [];
  for (const [path, load] of Object.entries(SITE_PAGES)) {
    const page = (await load()).default;
    pages.push({ path, status: 200, head: headTags(page.meta, 200), body: render(page) });
  }
  const notFound = (await loadNotFoundPage()).default;
  pages.push({ path: '/404', status: 404, head: headTags(notFound.meta, 404), body: render(notFound) });
  return pages;
}
