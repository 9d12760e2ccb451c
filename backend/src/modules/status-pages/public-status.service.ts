import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../common/http/api-error';
import type { AppConfig } from '../../config/app-config';
import { requestPath } from '../../common/http/route-prefixes';
import { requestOrigin } from '../../web/site-pages';
import { isSlug } from '@cronbeam/shared/notifications/status-pages';
import { overallState, StatusHistoryService } from './status-history.service';
import { StatusPagesRepository } from './status-pages.repository';
import { StatusPagesService } from './status-pages.service';
import { badgeSvg, incidentsFeed, statusPageHtml, type RenderedPage } from './status-render';

/** How long a page's history, a badge and a custom domain's answer are reused: the page's own Cache-Control says as long. */
export const PUBLIC_CACHE_SECONDS = 30;
/** Shared caches may keep the public answers as long as this instance does. */
export const PUBLIC_CACHE_CONTROL = `public, max-age=${PUBLIC_CACHE_SECONDS}`;
/** Entries kept per cache; past it the oldest go (a flood of made-up names cannot grow memory). */
const CACHE_ENTRIES = 1_000;
/** Incidents a public page and its feed show. */
const PUBLIC_INCIDENTS = 20;
/** Badge tokens are 32 random bytes in base64url. */
const BADGE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A small time-limited map: the public pages are read far more often than they change. */
class TtlCache<V> {
  private readonly entries = new Map<string, { expires: number; value: V }>();

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expires < Date.now()) return undefined;
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.entries.size >= CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { expires: Date.now() + PUBLIC_CACHE_SECONDS * 1000, value });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (match(entry.value)) this.entries.delete(key);
  }
}

export type PublicPage = RenderedPage & { pageId: string; slug: string };

/**
 * The public side of status pages: a page by slug or custom domain, and
 * badges by token, each read from the database at most once per
 * PUBLIC_CACHE_SECONDS per instance (an owner's change on this instance
 * drops the page at once). No authentication: what they show is what the
 * owner published (status-render.ts).
 */
@Injectable()
export class PublicStatusService {
  private readonly pageCache = new TtlCache<PublicPage | null>();
  private readonly badgeCache = new TtlCache<string | null>();
  private readonly domainCache = new TtlCache<string | null>();

  constructor(
    private readonly pages: StatusPagesRepository,
    private readonly owners: StatusPagesService,
    private readonly history: StatusHistoryService,
  ) {
    owners.onPublicChange(({ pageId, badgeToken }) => {
      if (pageId) {
        this.pageCache.deleteWhere((page) => page?.pageId === pageId);
        // Its slug or domain may have changed or gone: the pages cached under no name and the domains go too.
        this.pageCache.deleteWhere((page) => page === null);
        this.domainCache.clear();
      }
      if (badgeToken) this.badgeCache.delete(badgeToken);
    });
  }

  /** The published page with this slug, or null. */
  async page(slug: string): Promise<PublicPage | null> {
    if (!isSlug(slug)) return null;
    const cached = this.pageCache.get(slug);
    if (cached !== undefined) return cached;
    const row = await this.pages.findBySlug(slug);
    const page = row
      ? {
          pageId: row.id,
          slug: row.slug,
          title: row.title,
          snapshot: await this.history.snapshot(row.account_id, row.items, PUBLIC_INCIDENTS, 'replica'),
          notes: await this.owners.notes(row.account_id, await this.history.expand(row.account_id, row.items, 'replica')),
        }
      : null;
    this.pageCache.set(slug, page);
    return page;
  }

  /** The slug of the page served at this Host (a custom domain), or null for any other host. */
  async slugOfHost(host: string): Promise<string | null> {
    const name = host.toLowerCase().replace(/:\d+$/, '');
    if (this.owners.isOwnHost(host)) return null;
    const cached = this.domainCache.get(name);
    if (cached !== undefined) return cached;
    const slug = await this.pages.slugOfDomain(name);
    this.domainCache.set(name, slug);
    return slug;
  }

  /**
   * An onRequest hook, ahead of every route: a request to a page's custom
   * domain gets the page at / and its feed at /feed.atom; anything else there
   * is a 404 (the domain serves nothing of this site). Other hosts pass on.
   */
  customDomains(config: AppConfig) {
    return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
      const host = req.headers.host;
      // Names only: a custom domain is never an address literal (nor localhost).
      if (!host || !/^[a-z0-9.-]+(:\d+)?$/i.test(host) || /^[\d.]+(:\d+)?$/.test(host) || !host.includes('.')) return undefined;
      const slug = await this.slugOfHost(host);
      if (!slug) return undefined;
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError(405, 'A status page is read with GET');
      const urlPath = requestPath(req.url);
      if (urlPath !== '/' && urlPath !== '/feed.atom') throw ApiError.notFound('Not found');
      const page = await this.page(slug);
      if (!page) throw ApiError.notFound('Status page not found');
      reply.header('Cache-Control', PUBLIC_CACHE_CONTROL);
      if (urlPath === '/') return reply.type('text/html; charset=utf-8').send(statusPageHtml(page, '/feed.atom'));
      const origin = requestOrigin(req, config);
      return reply.type('application/atom+xml; charset=utf-8').send(incidentsFeed(page, `${origin}/`, `${origin}/feed.atom`, new Date()));
    };
  }

  /** The badge's SVG, or null for a token that is not (or no longer) a badge's. */
  async badge(token: string): Promise<string | null> {
    if (!BADGE_TOKEN.test(token)) return null;
    const cached = this.badgeCache.get(token);
    if (cached !== undefined) return cached;
    const svg = await this.renderBadge(token);
    this.badgeCache.set(token, svg);
    return svg;
  }

  private async renderBadge(token: string): Promise<string | null> {
    const badge = await this.pages.findBadgeByToken(token);
    if (!badge) return null;
    if (badge.page_id) {
      const row = await this.pages.findOwned(badge.account_id, badge.page_id);
      if (!row) return null;
      const { items } = await this.history.snapshot(badge.account_id, row.items, 0, 'replica');
      const uptimes = items.flatMap((i) => (i.uptime === null ? [] : [i.uptime]));
      const mean = uptimes.length ? Math.floor((uptimes.reduce((a, b) => a + b, 0) / uptimes.length) * 100) / 100 : null;
      return badgeSvg(row.title, overallState(items.map((i) => i.state)), mean);
    }
    const { items } = await this.history.snapshot(badge.account_id, [{ job_id: badge.job_id, monitor_id: badge.monitor_id, tag: null, label: null }], 0, 'replica');
    const item = items[0];
    return item ? badgeSvg(item.name, item.state, item.uptime) : null;
  }
}
