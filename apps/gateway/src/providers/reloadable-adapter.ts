import type { ProviderAdapter } from '@switchyard/core';

/** An adapter whose implementation can be replaced while it is in use (see {@link reloadableAdapter}). */
export interface ReloadableAdapter {
  /** The adapter to hand to the gateway: every property is read from the current implementation. */
  readonly adapter: ProviderAdapter;
  /** Makes `next` the implementation for every later call. */
  swap(next: ProviderAdapter): void;
}

/** A method of the current implementation and the same method bound to it, made once per implementation. */
interface BoundMethod {
  readonly method: (...args: unknown[]) => unknown;
  readonly bound: (...args: unknown[]) => unknown;
}

/**
 * Wraps `initial` in a Proxy that forwards every property read (methods bound to the implementation) to the current
 * implementation, so that {@link ReloadableAdapter.swap} changes what new calls use (e.g. an adapter built with a
 * re-read API key) while calls in flight, which already hold what the old implementation returned (a stream, a
 * promise), finish on it. The replacement must be built by the same factory (same methods and capabilities). A
 * method is bound once per implementation and property (the call path reads several per request), and again when the
 * implementation's property comes to hold another function; the cache holds at most the adapter's own method names.
 */
export function reloadableAdapter(initial: ProviderAdapter): ReloadableAdapter {
  let current = initial;
  const boundMethods = new Map<string | symbol, BoundMethod>();
  const adapter = new Proxy({} as ProviderAdapter, {
    get(_target, property) {
      const value = Reflect.get(current, property, current) as unknown;
      if (typeof value !== 'function') return value;
      const cached = boundMethods.get(property);
      if (cached?.method === value) return cached.bound;
      const method = value as (...args: unknown[]) => unknown;
      const bound = method.bind(current);
      boundMethods.set(property, { method, bound });
      return bound;
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
      boundMethods.clear();
    },
  };
}
