import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';
import { requestOrigin } from '../../web/site-pages';
import { PUBLIC_CACHE_SECONDS, PublicStatusService } from './public-status.service';
import { incidentsFeed, statusPageHtml } from './status-render';

/** Shared caches may keep the public answers as long as this instance does. */
const PUBLIC_CACHE_CONTROL = `public, max-age=${PUBLIC_CACHE_SECONDS}`;

/**
 * The published status pages (server-rendered HTML, no script), their Atom
 * feeds of incidents and the SVG badges. A custom domain reaches its page at
 * / and /feed.atom (PublicStatusService.customDomains rewrites those requests to these routes).
 */
@Controller()
export class PublicStatusController {
  constructor(
    private readonly status: PublicStatusService,
    private readonly config: AppConfig,
  ) {}

  @Get('status/:slug')
  async page(@Res() res: Response, @Param('slug') slug: string): Promise<void> {
    const page = await this.status.page(slug);
    if (!page) throw ApiError.notFound('Status page not found');
    const feedPath = res.locals.customDomain ? '/feed.atom' : `/status/${page.slug}/feed.atom`;
    res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
    res.type('html').send(statusPageHtml(page, feedPath));
  }

  @Get('status/:slug/feed.atom')
  async feed(@Req() req: Request, @Res() res: Response, @Param('slug') slug: string): Promise<void> {
    const page = await this.status.page(slug);
    if (!page) throw ApiError.notFound('Status page not found');
    const origin = requestOrigin(req, this.config);
    const pageUrl = res.locals.customDomain ? `${origin}/` : `${origin}/status/${page.slug}`;
    const feedUrl = res.locals.customDomain ? `${origin}/feed.atom` : `${pageUrl}/feed.atom`;
    res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
    res.type('application/atom+xml').send(incidentsFeed(page, pageUrl, feedUrl, new Date()));
  }

  @Get('badge/:file')
  async badge(@Res() res: Response, @Param('file') file: string): Promise<void> {
    const svg = file.endsWith('.svg') ? await this.status.badge(file.slice(0, -'.svg'.length)) : null;
    if (!svg) throw ApiError.notFound('Badge not found');
    res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
    // READMEs and dashboards on other sites show it as an image.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.type('image/svg+xml').send(svg);
  }
}
