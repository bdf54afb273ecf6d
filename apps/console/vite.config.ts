import { defineConfig } from 'vite';

// Built into dist/ with asset URLs under /ui/, where the gateway serves them. JSX compiles to Preact's automatic
// runtime. No inline scripts or styles end up in index.html (the gateway's CSP forbids them).
export default defineConfig({
  base: '/ui/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
