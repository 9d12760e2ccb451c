import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/**
 * electron-vite leaves the root package.json's dependencies to be required at run time; @cronbeam/shared is
 * TypeScript source (docs/adr/0179-shared-package-and-desktop-on-the-sdk.md), so it is compiled into the bundles.
 */
const bundleShared = { externalizeDeps: { exclude: ['@cronbeam/shared'] } };

/** The web app's route for public pages; the desktop window gets a stand-in that opens them in the browser. */
const SITE_ROUTE = resolve(__dirname, 'web/site/site-route.tsx');
const DESKTOP_SITE_ROUTE = resolve(__dirname, 'web/app/platform/desktop-site-route.tsx');

/** Keeps the public site (landing, legal pages, guides, API docs) out of the desktop bundle. */
function withoutPublicSite(): Plugin {
  return {
    name: 'cronbeam-desktop-without-public-site',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === SITE_ROUTE ? DESKTOP_SITE_ROUTE : undefined;
    },
  };
}

/**
 * The desktop shell: main process and preload bridge; the window loads the web app (web/), built without the public site.
 * Everything lands in desktop/out, inside the desktop package that electron-builder ships (desktop/package.json).
 */
export default defineConfig({
  main: {
    build: {
      ...bundleShared,
      outDir: 'desktop/out/main',
      // keytar is an optional native module, loaded at run time when present (see desktop/main/session/token-vault.ts).
      rollupOptions: { input: { index: resolve(__dirname, 'desktop/main/index.ts') }, external: ['keytar'] },
    },
  },
  preload: {
    build: { ...bundleShared, outDir: 'desktop/out/preload', rollupOptions: { input: { index: resolve(__dirname, 'desktop/preload/index.ts') } } },
  },
  renderer: {
    root: resolve(__dirname, 'web'),
    plugins: [withoutPublicSite(), react()],
    build: { outDir: 'desktop/out/renderer', rollupOptions: { input: { index: resolve(__dirname, 'web/index.html') } } },
  },
});
