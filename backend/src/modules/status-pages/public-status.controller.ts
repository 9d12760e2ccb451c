import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';
import { requestOrigin } from '../../web/site-pages';
import { PUBLIC_CACHE_CONTROL, PublicStatusService } from './public-status.service';
import { incidentsFeed, statusPageHtml } from './status-render';

/**
 * The published status pages (server-rendered HTML, no script), their Atom
 * feeds of incidents and the SVG badges. A custom domain reaches its page at
 * / and /feed.atom (PublicStatusService.customDomains answers those requests the same way).
 */
@Controller()
export class PublicStatusController {
  constructor(
    private readonly status: PublicStatusService,
    private readonly config: AppConfig,
  ) {}

  @Get('status/:slug')
  async page(@Res() reply: FastifyReply, @Param('slug') slug: string): Promise<void> {
    const page = await this.status.page(slug);
    if (!page) throw ApiError.notFound('Status page not found');
    reply.header('Cache-Control', PUBLIC_CACHE_CONTROL);
    reply.type('text/html; charset=utf-8').send(statusPageHtml(page, `/status/${page.slug}/feed.atom`));
  }

  @Get('status/:slug/feed.atom')
  async feed(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('slug') slug: string): Promise<void> {
    const page = await this.status.page(slug);
    if (!page) throw ApiError.notFound('Status page not found');
    const pageUrl = `${requestOrigin(req, this.config)}/status/${page.slug}`;
    reply.header('Cache-Control', PUBLIC_CACHE_CONTROL);
    reply.type('application/atom+xml; charset=utf-8').send(incidentsFeed(page, pageUrl, `${pageUrl}/feed.atom`, new Date()));
  }

  @Get('badge/:file')
  async badge(@Res() reply: FastifyReply, @Param('file') file: string): Promise<void> {
    const svg = file.endsWith('.svg') ? await this.status.badge(file.slice(0, -'.svg'.length)) : null;
    if (!svg) throw ApiError.notFound('Badge not found');
    reply.header('Cache-Control', PUBLIC_CACHE_CONTROL);
    // READMEs and dashboards on other sites show it as an image (the raw header helmet set is replaced).
    reply.raw.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    reply.type('image/svg+xml; charset=utf-8').send(svg);
  }
}
