import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', adapter: 'src/adapter-api.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
});
