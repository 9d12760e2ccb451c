import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';

const root = resolve(__dirname, '..');
const rendererRoot = resolve(root, 'desktop/renderer');
/** The /prog OpenAPI document the /api-documentation page is rendered from (kept in git so typecheck and the desktop build see it). */
export const PROG_OPENAPI_FILE = resolve(rendererRoot, 'src/site/api-docs/prog-openapi.json');
/** Folder of dist/web holding the prerendered pages and their manifest (read by backend/src/web/site-pages.ts). */
export const SITE_PAGES_DIR = 'site-pages';

interface PrerenderedPage {
  path: string;
  status: 200 | 404;
  head: string;
  body: string;
}

/**
 * Writes the /prog OpenAPI document of the current backend code into the
 * renderer's sources when it changed. When the backend cannot load (someone's
 * half-done change), the web build keeps the committed document and says so
 * instead of failing: test/api/site-pages.e2e-spec.ts compares it with the
 * live /prog/openapi.json, so a stale copy cannot pass the tests.
 */
function refreshProgOpenApi(warn: (message: string) => void): void {
  let json: string;
  try {
    json = execFileSync(process.execPath, ['-r', '@swc-node/register', 'scripts/export-prog-openapi.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.backend.json', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    if (!existsSync(PROG_OPENAPI_FILE)) throw error;
    const reason = String((error as { stderr?: unknown }).stderr ?? error).split('\n').find((line) => /Error/.test(line)) ?? 'unknown error';
    warn(`The /prog OpenAPI document could not be exported (${reason.trim()}); the committed copy is used.`);
    return;
  }
  const current = existsSync(PROG_OPENAPI_FILE) ? readFileSync(PROG_OPENAPI_FILE, 'utf8') : '';
  if (current !== json) writeFileSync(PROG_OPENAPI_FILE, json);
}

/** The page file of a path: / → index.html, /guides/webhooks → guides/webhooks.html. */
function fileOf(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`;
}

/**
 * Build step of the public pages: before bundling, refreshes the OpenAPI
 * document of /prog; after bundling, renders every public page with React on
 * the server and writes it into the built site.html template, so each URL's
 * raw HTML carries its title, metadata and text before any script runs.
 */
export function sitePrerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'cronbeam-site-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    buildStart() {
      refreshProgOpenApi((message) => this.warn(message));
    },
    async closeBundle() {
      const outDir = config.build.outDir;
      const templateFile = join(outDir, 'site.html');
      // No template: the bundle failed and reports its own error, which prerendering would only hide.
      if (!existsSync(templateFile)) return;
      const template = readFileSync(templateFile, 'utf8');
      const vite = await createServer({
        configFile: false,
        root: rendererRoot,
        logLevel: 'error',
        plugins: [react()],
        resolve: config.resolve,
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { prerenderSitePages, SITE_REDIRECTS } = (await vite.ssrLoadModule('/src/site/prerender.tsx')) as {
          prerenderSitePages: () => Promise<PrerenderedPage[]>;
          SITE_REDIRECTS: Record<string, string>;
        };
        const pages = await prerenderSitePages();
        const manifest = { pages: {} as Record<string, { file: string; status: number }>, redirects: SITE_REDIRECTS };
        for (const page of pages) {
          const file = join(SITE_PAGES_DIR, fileOf(page.path));
          // Replacer functions: page text may contain '$' sequences that string replacements would interpret.
          const html = template.replace('<!--site-head-->', () => page.head).replace('<!--site-body-->', () => page.body);
          mkdirSync(dirname(join(outDir, file)), { recursive: true });
          writeFileSync(join(outDir, file), html);
          manifest.pages[page.path] = { file, status: page.status };
        }
        writeFileSync(join(outDir, SITE_PAGES_DIR, 'manifest.json'), JSON.stringify(manifest, null, 2));
        // The template itself is not a page anyone should load.
        rmSync(templateFile);
      } finally {
        await vite.close();
      }
    },
  };
}
