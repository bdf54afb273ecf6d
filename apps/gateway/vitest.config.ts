import { defineConfig } from 'vitest/config';

// `expect.poll` waits on something the gateway does after answering (a ledger row booked after a tokenizer count, a
// log line): 1 s, vitest's default, ran out on a loaded 2-core CI machine; a poll still ends as soon as it holds.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    expect: { poll: { timeout: 10_000 } },
  },
});
