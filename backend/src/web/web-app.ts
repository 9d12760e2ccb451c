import * as fs from 'node:fs';
import * as path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { isServerPath, requestPath } from '../common/http/route-prefixes';
import type { AppConfig } from '../config/app-config';
import { hostsMetaTag, SITE_PAGES_DIR, SitePages, sitePageAnswer } from './site-pages';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cronbeam</title></head>
<body><h1>Cronbeam</h1><p>The web app has not been built. Run <code>npm run build:web</code>.</p></body></html>`;

const HTML = 'text/html; charset=utf-8';

/** Server paths whose answers are compressed: status pages are HTML of 90 bars per item (a 50-item page goes from ~300 KB to a few dozen). */
const COMPRESSED_SERVER_PREFIX = '/status';

/**
 * Compression for the web app's pages and assets (a third of the bytes on a
 * phone's connection) and the status pages; the API is left as it is (event
 * streams must not be buffered). An onRoute hook, added before the plugin's,
 * turns it off route by route, so it has to be registered before any route.
 * gzip and deflate only, above 1 KiB, as before.
 */
export async function registerCompression(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const url = route.url ?? '';
    if (isServerPath(url) && url !== COMPRESSED_SERVER_PREFIX && !url.startsWith(`${COMPRESSED_SERVER_PREFIX}/`)) route.compress = false;
  });
  await fastify.register(fastifyCompress, { global: true, encodings: ['gzip', 'deflate'], threshold: 1024, globalDecompression: false });
}

/** The file under `root` a URL path names, when it is a plain file there (no dot segments or dotfiles, as static serving ignores them). */
async function fileUnder(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
  const relative = path.posix.normalize(decoded).replace(/^\/+/, '');
  if (relative === '') return null;
  const stat = await fs.promises.stat(path.join(root, relative)).catch(() => null);
  return stat?.isFile() ? relative : null;
}

/**
 * Serves the built React app: hashed assets with long caching; the public
 * pages prerendered by the build, behind the host guards (site-pages.ts); and
 * index.html for every other GET that is not a server path (client-side
 * routes such as /dashboard). One catch-all GET route (Fastify answers HEAD
 * with it): every more specific route (Nest's) wins over it, and a server
 * path that none matched gets Nest's JSON 404, never the web page.
 */
export async function mountWebApp(fastify: FastifyInstance, config: AppConfig): Promise<void> {
  const distDir = config.webDistDir;
  const assetsDir = path.join(distDir, 'assets');
  const indexFile = path.join(distDir, 'index.html');
  const hostsMeta = hostsMetaTag(config);
  const pages = SitePages.load(distDir);
  let appPage: string | undefined;
  // reply.sendFile only: the route below decides what is served.
  await fastify.register(fastifyStatic, { root: distDir, serve: false, index: false });

  const handler = async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const urlPath = requestPath(req.url);
    if (isServerPath(urlPath)) return reply.callNotFound();
    if (urlPath.startsWith('/assets/')) {
      const asset = await fileUnder(assetsDir, urlPath.slice('/assets'.length));
      if (asset) return reply.sendFile(asset, assetsDir, { immutable: true, maxAge: '365d' });
    }
    if (pages && (await sitePageAnswer(req, reply, config, pages)) !== null) return reply;
    // The prerendered files are reached by their page URLs only.
    if (urlPath === `/${SITE_PAGES_DIR}` || urlPath.startsWith(`/${SITE_PAGES_DIR}/`)) return reply.code(404).send();
    const file = await fileUnder(distDir, urlPath);
    if (file) return reply.sendFile(file, distDir, { maxAge: '1h' });
    if (urlPath.startsWith('/assets/')) return reply.callNotFound();
    reply.header('Cache-Control', 'no-cache');
    if (!fs.existsSync(indexFile)) return reply.type(HTML).send(PLACEHOLDER);
    // The page is revalidated (no-cache) against its ETag and Last-Modified, which the file gives.
    if (!hostsMeta) return reply.sendFile('index.html', distDir, { cacheControl: false });
    appPage ??= fs.readFileSync(indexFile, 'utf8').replace(/<meta name="viewport"[^<>]*>/, (viewport) => `${viewport}\n    ${hostsMeta}`);
    return reply.type(HTML).send(appPage);
  };
  fastify.route({ method: 'GET', url: '/*', handler });
}
