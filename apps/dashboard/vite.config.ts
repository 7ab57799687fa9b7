import { defineConfig } from 'vite';

// `pnpm --filter @vigil/dashboard dev` serves the dashboard with hot reload and forwards the API to
// a vigil-server on 8080 (`pnpm start` at the root), so the pages talk to it as if same-origin.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // Every browser the target names supports modulepreload: the polyfill would be dead weight.
    modulePreload: { polyfill: false },
    // A strict CSP forbids data: scripts and styles; keep every asset a file.
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { '/v1': 'http://127.0.0.1:8080' },
  },
});
