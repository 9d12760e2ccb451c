/** What a public page says about itself to browsers, search engines and link previews. */
export interface PageMeta {
  /** The page's path, e.g. /guides/webhooks. */
  path: string;
  title: string;
  description: string;
  keywords?: readonly string[];
  /** 'article' for guides, else 'website'. */
  type?: 'website' | 'article';
  /** schema.org data embedded as JSON-LD. */
  jsonLd?: Record<string, unknown>;
}

export const SITE_NAME = 'Cronbeam';

/**
 * Stands for the public origin in prerendered HTML; the server writes the real
 * origin in when it serves the page (the build cannot know the host).
 */
export const SITE_ORIGIN_PLACEHOLDER = 'https://__cronbeam_site_origin__';
/** Same for the origin of the public API (/prog) in code samples. */
export const API_ORIGIN_PLACEHOLDER = 'https://__cronbeam_api_origin__';

const isServer = typeof document === 'undefined';

function metaContent(name: string): string | null {
  return document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? null;
}

/** The origin canonical links point at: the one the server announced, else this page's. */
export function siteOrigin(): string {
  if (isServer) return SITE_ORIGIN_PLACEHOLDER;
  return metaContent('cronbeam:site-origin') ?? window.location.origin;
}

/** The origin of the public API printed in code samples. */
export function apiOrigin(): string {
  if (isServer) return API_ORIGIN_PLACEHOLDER;
  return metaContent('cronbeam:api-origin') ?? window.location.origin;
}
