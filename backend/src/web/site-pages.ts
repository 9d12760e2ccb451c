import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNED_OUT_KEY, decideHostRoute, hostsConfigured, isAppPath, isUnexpiredJwt, type SiteHosts } from '@cronbeam/shared/site/host-guard';
import { requestPath } from '../common/http/route-prefixes';
import type { AppConfig } from '../config/app-config';
import { withoutTrailingSlashes } from '@cronbeam/shared/text/trailing-slashes';

/** Folder of the web build holding the prerendered public pages (written by web/site/prerender-plugin.ts). */
export const SITE_PAGES_DIR = 'site-pages';
/** Stand-ins the build leaves in the pages for origins only the server knows. */
const SITE_ORIGIN_PLACEHOLDER = 'https://__cronbeam_site_origin__';
const API_ORIGIN_PLACEHOLDER = 'https://__cronbeam_api_origin__';
/** Session cookies the web app stores; cleared when a guard ends an expired session. */
const SESSION_COOKIES = ['accessToken', 'idToken'];
/** A Host header safe to print into a page: a name or IPv4/IPv6 literal with an optional port. */
const SAFE_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

interface SiteManifest {
  pages: Record<string, { file: string; status: number }>;
  redirects: Record<string, string>;
}

/** The prerendered pages of one web build, read from disk once. */
export class SitePages {
  private readonly html = new Map<string, string>();

  private constructor(
    readonly distDir: string,
    readonly manifest: SiteManifest,
  ) {}

  /** Null when the build has no prerendered pages (an older build or the placeholder). */
  static load(distDir: string): SitePages | null {
    const file = path.join(distDir, SITE_PAGES_DIR, 'manifest.json');
    if (!fs.existsSync(file)) return null;
    return new SitePages(distDir, JSON.parse(fs.readFileSync(file, 'utf8')) as SiteManifest);
  }

  has(pagePath: string): boolean {
    return pagePath !== '/404' && pagePath in this.manifest.pages;
  }

  /** The page's HTML with the real origins written in. */
  render(pagePath: string, origins: { site: string; api: string }): string {
    const entry = this.manifest.pages[pagePath];
    let html = this.html.get(pagePath);
    if (html === undefined) {
      html = fs.readFileSync(path.join(this.distDir, entry.file), 'utf8');
      this.html.set(pagePath, html);
    }
    return html.replaceAll(SITE_ORIGIN_PLACEHOLDER, origins.site).replaceAll(API_ORIGIN_PLACEHOLDER, origins.api);
  }

  /** Indexable pages: every public page but the not-found page. */
  publicPaths(): string[] {
    return Object.entries(this.manifest.pages)
      .filter(([, page]) => page.status === 200)
      .map(([pagePath]) => pagePath);
  }
}

export function siteHostsOf(config: AppConfig): SiteHosts {
  return { app: config.env.APP_HOST, marketing: config.env.MARKETING_HOST, dev: config.env.DEV_HOST };
}

/** The tag the app reads the hosts from, to apply the host guards on client-side navigation; null with no host configured. */
export function hostsMetaTag(config: AppConfig): string | null {
  const hosts = siteHostsOf(config);
  return hostsConfigured(hosts) ? `<meta name="cronbeam:hosts" content="${JSON.stringify(hosts).replace(/"/g, '&quot;')}" />` : null;
}


/** This request's own origin when its Host header is well-formed, else the configured public URL. */
export function requestOrigin(req: FastifyRequest, config: AppConfig): string {
  const host = req.headers.host ?? '';
  return SAFE_HOST.test(host) ? `${req.protocol}://${host}` : config.publicUrl;
}

/** Canonical links and the sitemap point at the marketing host when there is one. */
export function siteOrigin(req: FastifyRequest, config: AppConfig): string {
  if (config.env.MARKETING_HOST) return `${req.protocol}://${config.env.MARKETING_HOST}`;
  return config.env.PUBLIC_URL ? config.publicUrl : requestOrigin(req, config);
}

/** Code samples call the API where this server answers. */
function apiOrigin(req: FastifyRequest, config: AppConfig): string {
  return config.env.PUBLIC_URL ? config.publicUrl : requestOrigin(req, config);
}

/** Expires the session cookies for this host and for the parent domain the app shares them on. */
function clearSessionCookies(req: FastifyRequest, reply: FastifyReply): void {
  const labels = req.hostname.split('.');
  const parent = labels.length > 2 && !/^[\d.]+$/.test(req.hostname) ? labels.slice(-2).join('.') : null;
  for (const name of SESSION_COOKIES) {
    reply.clearCookie(name, { path: '/' });
    if (parent) reply.clearCookie(name, { path: '/', domain: parent });
  }
}

function sitemap(pages: SitePages, origin: string): string {
  const urls = pages.publicPaths().sort().map((p) => `  <url><loc>${origin}${p}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function robots(origin: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /dashboard', 'Disallow: /profile', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}

/**
 * Page requests of the public site and the host guards: redirects by Host
 * header and session cookie, prerendered HTML for public pages, sitemap.xml
 * and robots.txt, and a real 404 for paths nobody serves. The reply when it
 * answered; app screens and static files are left to the caller (null).
 */
export async function sitePageAnswer(req: FastifyRequest, reply: FastifyReply, config: AppConfig, pages: SitePages): Promise<FastifyReply | null> {
  const hosts = siteHostsOf(config);
  const urlPath = requestPath(req.url);
  const origins = () => ({ site: siteOrigin(req, config), api: apiOrigin(req, config) });
  const html = (status: number, page: string) => reply.code(status).type('text/html; charset=utf-8').send(pages.render(page, origins()));
  if (urlPath === '/sitemap.xml') return reply.type('application/xml; charset=utf-8').send(sitemap(pages, origins().site));
  if (urlPath === '/robots.txt') return reply.type('text/plain; charset=utf-8').send(robots(origins().site));
  // Browsers ask for /favicon.ico on their own; the icon is an SVG.
  if (urlPath === '/favicon.ico') return reply.redirect('/favicon.svg', 301);
  // Files (assets, icons) are the static handler's, when they exist. App paths may end like a file (/verify/a@b.com).
  if (path.posix.extname(urlPath) && !isAppPath(urlPath)) {
    const file = path.join(pages.distDir, path.posix.normalize(urlPath));
    if (file.startsWith(pages.distDir) && (await fs.promises.access(file).then(() => true, () => false))) return null;
    return html(404, '/404');
  }

  const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
  if (urlPath.length > 1 && urlPath.endsWith('/')) return reply.redirect(withoutTrailingSlashes(urlPath) + search, 301);
  const moved = pages.manifest.redirects[urlPath];
  if (moved) return reply.redirect(moved + search, 301);

  const decision = decideHostRoute({
    path: urlPath,
    search,
    host: req.headers.host ?? '',
    protocol: req.protocol,
    hosts,
    hasSession: isUnexpiredJwt(req.cookies?.idToken),
    signedOut: req.cookies?.[SIGNED_OUT_KEY] === '1',
  });
  if (decision.kind === 'redirect') {
    if (decision.clearSession) clearSessionCookies(req, reply);
    reply.header('Cache-Control', 'no-store');
    return reply.redirect(decision.location, 302);
  }
  reply.header('Cache-Control', 'no-cache');
  if (pages.has(urlPath)) return html(200, urlPath);
  if (isAppPath(urlPath)) return null;
  return html(404, '/404');
}
