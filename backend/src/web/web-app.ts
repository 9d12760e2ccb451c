import * as fs from 'node:fs';
import * as path from 'node:path';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { isServerPath } from '../common/http/route-prefixes';
import type { AppConfig } from '../config/app-config';
import { hostsMetaTag, SITE_PAGES_DIR, SitePages, sitePagesMiddleware } from './site-pages';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cronbeam</title></head>
<body><h1>Cronbeam</h1><p>The web app has not been built. Run <code>npm run build:web</code>.</p></body></html>`;

/**
 * Serves the built React app: hashed assets with long caching; the public
 * pages prerendered by the build, behind the host guards (site-pages.ts); and
 * index.html for every other GET that is not a server path (client-side
 * routes such as /dashboard). Server paths fall through to Nest, so an
 * unknown /api route is a JSON 404, never the web page.
 */
export function mountWebApp(server: Express, config: AppConfig): void {
  const distDir = config.webDistDir;
  const indexFile = path.join(distDir, 'index.html');
  const web = express.Router();
  // Pages and assets go out compressed (a third of the bytes on a phone's connection); the API is left as it is (event streams).
  web.use(compression());
  web.use('/assets', express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: true }));
  const hostsMeta = hostsMetaTag(config);
  const pages = SitePages.load(distDir);
  let appPage: string | undefined;
  if (pages) web.use(sitePagesMiddleware(config, pages));
  // The prerendered files are reached by their page URLs only.
  web.use(`/${SITE_PAGES_DIR}`, (_req: Request, res: Response) => res.status(404).end());
  web.use(express.static(distDir, { index: false, maxAge: '1h' }));
  web.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/assets/')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    if (!fs.existsSync(indexFile)) return res.type('html').send(PLACEHOLDER);
    if (!hostsMeta) return res.sendFile(indexFile);
    appPage ??= fs.readFileSync(indexFile, 'utf8').replace(/<meta name="viewport"[^<>]*>/, (viewport) => `${viewport}\n    ${hostsMeta}`);
    res.type('html').send(appPage);
  });
  // One check sends server paths past all of the above (each layer would be a router step, and the
  // static lookups a file-system call); what the web app does not answer falls through to Nest.
  server.use((req: Request, res: Response, next: NextFunction) => (isServerPath(req.path) ? next() : web(req, res, next)));
}
