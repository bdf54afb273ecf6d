import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/response-store.ts', 'src/tokenize-worker.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
});
