import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { sitePrerender } from './site/prerender-plugin';

const root = resolve(__dirname, '..');

/**
 * The one web build: the app (index.html → app/) and the public site
 * (site/site.html → site/, prerendered page by page), served by the backend
 * from dist/web.
 */
export default defineConfig({
  root: __dirname,
  plugins: [react(), sitePrerender()],
  build: {
    outDir: resolve(root, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // The app, and the public pages' template (prerendered by sitePrerender).
    rollupOptions: {
      input: { index: resolve(__dirname, 'index.html'), site: resolve(__dirname, 'site/site.html') },
      // The prerender step exports the OpenAPI document and renders the pages: seconds by design, not worth a timing warning.
      checks: { bundlerTimings: false },
      // zod and the module that configures it (app/zod-without-eval.ts) in a chunk of their own: any chunk holding schemas
      // imports it and so runs the configuration first. (Inlined into the entry, the configuration ran only after the
      // entry's imports had built their schemas, and zod's eval probe broke the Content-Security-Policy.)
      output: { codeSplitting: { groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]app[\\/]zod-without-eval\.ts$/ }] } },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/prog': 'http://localhost:3000', '/.well-known': 'http://localhost:3000' } },
});
