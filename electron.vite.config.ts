import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const shared = { '@shared': resolve(__dirname, 'shared/src') };

/** The desktop shell: main process, preload bridge, and the same React app as the web build. */
export default defineConfig({
  main: {
    resolve: { alias: shared },
    build: {
      outDir: 'out/main',
      // keytar is an optional native module, loaded at run time when present (see desktop/main/session/token-vault.ts).
      rollupOptions: { input: { index: resolve(__dirname, 'desktop/main/index.ts') }, external: ['keytar'] },
    },
  },
  preload: {
    resolve: { alias: shared },
    build: { outDir: 'out/preload', rollupOptions: { input: { index: resolve(__dirname, 'desktop/preload/index.ts') } } },
  },
  renderer: {
    root: resolve(__dirname, 'desktop/renderer'),
    plugins: [react()],
    resolve: { alias: shared },
    build: { outDir: 'out/renderer', rollupOptions: { input: { index: resolve(__dirname, 'desktop/renderer/index.html') } } },
  },
});
