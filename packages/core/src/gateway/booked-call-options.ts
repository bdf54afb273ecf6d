import type { CallLabels, CallTicket } from '../accounting/call-accounting.js';
import type { CacheDirective } from '../model/cache-settings.js';
import type { AcceptedCall, GatewayCallOptions } from './gateway-options.js';

export const ADMITTING = Symbol('admitting');
/** Per-call flag: set once admission started (from then on, admission and settlement book the call). */
export interface Booking {
  /** `ticket`: the call's admission ticket once admitted (its settlement is awaited before the call resolves). */
  [ADMITTING]: { started: boolean; ticket?: CallTicket };
}

/** Every field of {@link GatewayCallOptions}, none left out (so that {@link BookedCallOptions} passes each on). */
type EveryCallOption = { [K in keyof Required<GatewayCallOptions>]: GatewayCallOptions[K] };

/**
 * A call's options under accounting (see `bookRefusal`): the caller's {@link GatewayCallOptions} as they are, read
 * through prototype getters, plus the call's request id (the caller's, else a fresh one) and its {@link Booking}. Not a
 * copy: copying the caller's object would run its getters (the gateway's `cacheScope` hashes the key, which only a call
 * that uses the cache needs) and, for a streamed call, store its `onAccepted` closure in a field of a new object.
 */
export class BookedCallOptions implements EveryCallOption, Booking {
  readonly #options: GatewayCallOptions;
  readonly requestId: string;
  readonly [ADMITTING]: { started: boolean; ticket?: CallTicket } = { started: false };

  constructor(options: GatewayCallOptions, requestId: string) {
    this.#options = options;
    this.requestId = requestId;
  }

  get signal(): AbortSignal | undefined {
    return this.#options.signal;
  }
  get maxRetries(): number | undefined {
    return this.#options.maxRetries;
  }
  get timeoutMs(): number | undefined {
    return this.#options.timeoutMs;
  }
  get caller(): unknown {
    return this.#options.caller;
  }
  get cache(): CacheDirective | undefined {
    return this.#options.cache;
  }
  get cacheScope(): string | undefined {
    return this.#options.cacheScope;
  }
  get onAccepted(): ((accepted: AcceptedCall) => void) | undefined {
    return this.#options.onAccepted;
  }
  get upstreamHeaders(): Record<string, string> | undefined {
    return this.#options.upstreamHeaders;
  }
  get clientHeaders(): Readonly<Record<string, string>> | undefined {
    return this.#options.clientHeaders;
  }
  get labels(): CallLabels | undefined {
    return this.#options.labels;
  }
}
