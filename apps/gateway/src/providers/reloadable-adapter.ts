import type { ProviderAdapter } from '@switchyard/core';

/** An adapter whose implementation can be replaced while it is in use (see {@link reloadableAdapter}). */
export interface ReloadableAdapter {
  /** The adapter to hand to the gateway: every property is read from the current implementation. */
  readonly adapter: ProviderAdapter;
  /** Makes `next` the implementation for every later call. */
  swap(next: ProviderAdapter): void;
}

/**
 * Wraps `initial` in a Proxy that forwards every property read (methods bound to the implementation) to the current
 * implementation, so that {@link ReloadableAdapter.swap} changes what new calls use (e.g. an adapter built with a
 * re-read API key) while calls in flight, which already hold what the old implementation returned (a stream, a
 * promise), finish on it. The replacement must be built by the same factory (same methods and capabilities).
 */
export function reloadableAdapter(initial: ProviderAdapter): ReloadableAdapter {
  let current = initial;
  const adapter = new Proxy({} as ProviderAdapter, {
    get(_target, property) {
      const value = Reflect.get(current, property, current) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
    has: (_target, property) => Reflect.has(current, property),
    ownKeys: () => Reflect.ownKeys(current),
    getOwnPropertyDescriptor(_target, property) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current, property);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(current),
  });
  return {
    adapter,
    swap(next) {
      current = next;
    },
  };
}
