import { afterAll, beforeAll } from 'vitest';

/**
 * Registers a `beforeAll` that runs `start` and an `afterAll` that runs `stop` on what it started, and returns at
 * once a stand-in that forwards every property read (methods bound) to the started object. Reading the stand-in
 * before `beforeAll` has run (at module level) throws an Error naming `what`. Used by {@link useMockUpstream} and
 * {@link useRedisServer}.
 */
export function startedInBeforeAll<T extends object>(
  what: string,
  start: () => Promise<T>,
  stop: (started: T) => Promise<void>,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started) await stop(started);
  });
  return new Proxy({} as T, {
    get(_target, property) {
      if (!started)
        throw new Error(
          `${what}: read (.${String(property)}) before beforeAll started it; use it in tests and hooks only`,
        );
      const value = Reflect.get(started, property, started) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(started) : value;
    },
  });
}
