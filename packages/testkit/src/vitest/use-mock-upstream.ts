import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type MockUpstream, type MockUpstreamOptions, startMockUpstream } from '../mock-upstream/start-mock-upstream.js';

/** Options of {@link useMockUpstream}. */
export interface UseMockUpstreamOptions extends MockUpstreamOptions {
  /** Forget recorded requests and route call counts before every test (`beforeEach(() => upstream.clear())`). Default false. */
  clearBetweenTests?: boolean;
}

/**
 * The usual set-up of a test file that talks to one mock upstream, in one call: registers a `beforeAll` that starts it
 * ({@link startMockUpstream}), an `afterAll` that closes it and, with `clearBetweenTests`, a `beforeEach` that clears
 * it. Returns the upstream at once, as a stand-in that forwards to the started one: use it in tests and hooks
 * (`upstream.url`, `upstream.route(...)`, `upstream.requestsTo(...)`), never at module level, where it throws.
 */
export function useMockUpstream(options: UseMockUpstreamOptions = {}): MockUpstream {
  const { clearBetweenTests, ...upstreamOptions } = options;
  let started: MockUpstream | undefined;
  beforeAll(async () => {
    started = await startMockUpstream(upstreamOptions);
  });
  if (clearBetweenTests) beforeEach(() => started?.clear());
  afterAll(() => started?.close());
  return new Proxy({} as MockUpstream, {
    get(_target, property) {
      if (!started) throw new Error(`useMockUpstream: the upstream is read (.${String(property)}) before beforeAll started it`);
      const value = Reflect.get(started, property, started) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(started) : value;
    },
  });
}
