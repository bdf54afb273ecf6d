import { beforeEach } from 'vitest';
import {
  type MockUpstream,
  type MockUpstreamOptions,
  startMockUpstream,
} from '../mock-upstream/start-mock-upstream.js';
import { startedInBeforeAll } from './started-in-before-all.js';

/** Options of {@link useMockUpstream}. */
export interface UseMockUpstreamOptions extends MockUpstreamOptions {
  /** Forget recorded requests and route call counts before every test (`beforeEach(() => upstream.clear())`). Default false. */
  clearBetweenTests?: boolean;
}

/**
 * The usual set-up of a test file that talks to one mock upstream, in one call: registers a `beforeAll` that starts it
 * ({@link startMockUpstream}), an `afterAll` that closes it and, with `clearBetweenTests`, a `beforeEach` that clears
 * it. Returns the upstream at once, as a stand-in that forwards to the started one: use it in tests and hooks
 * (`upstream.url`, `upstream.route(...)`, `upstream.requestsTo(...)`); read at module level, it throws.
 */
export function useMockUpstream(options: UseMockUpstreamOptions = {}): MockUpstream {
  const { clearBetweenTests, ...upstreamOptions } = options;
  const upstream = startedInBeforeAll(
    'useMockUpstream',
    () => startMockUpstream(upstreamOptions),
    (started) => started.close(),
  );
  if (clearBetweenTests) beforeEach(() => upstream.clear());
  return upstream;
}
