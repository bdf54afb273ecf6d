import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { demo: 'src/demo.ts' },
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node22',
});
