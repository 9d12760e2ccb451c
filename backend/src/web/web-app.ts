import * as fs from 'node:fs';
import * as path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { isServerPath } from '../common/http/route-prefixes';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cronbeam</title></head>
<body><h1>Cronbeam</h1><p>The web app has not been built. Run <code>npm run build:web</code>.</p></body></html>`;

/**
 * Serves the built React app: hashed assets with long caching, and index.html
 * for every other GET that is not a server path (client-side routes such as
 * /dashboard). Server paths fall through to Nest, so an unknown /api route is
 * a JSON 404, never the web page.
 */
export function mountWebApp(server: Express, distDir: string): void {
  const indexFile = path.join(distDir, 'index.html');
  server.use(
    '/assets',
    express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: true }),
  );
  server.use(express.static(distDir, { index: false, maxAge: '1h' }));
  server.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isServerPath(req.path) || req.path.startsWith('/assets/')) {
      return next();
    }
    res.setHeader('Cache-Control', 'no-cache');
    if (fs.existsSync(indexFile)) return res.sendFile(indexFile);
    res.type('html').send(PLACEHOLDER);
  });
}
