import { defineConfig } from 'vitest/config';

// Real Postgres servers start and stop inside these tests: on a loaded 2-core machine that takes seconds, so the
// per-test budget is larger than vitest's 5 s default (the tests themselves poll with their own deadlines).
export default defineConfig({ test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 } });
