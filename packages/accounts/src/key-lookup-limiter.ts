import { TokenBucket } from './token-bucket.js';

/** Options of {@link KeyLookupLimiter}. */
export interface KeyLookupLimiterOptions {
  /** Store look-ups of unknown keys per client address per minute (a bucket of this many, refilled over a minute). Default 60. */
  perMinute?: number;
  /** Client addresses remembered at once; past it the oldest is forgotten. Default 10,000. */
  maxAddresses?: number;
  /** Look-ups in flight at once, whatever the address. Default 16. */
  maxInFlight?: number;
}

/**
 * Bounds the store look-ups of keys this replica does not know (a key another replica has just created): a token
 * bucket per client address (`perMinute` per minute), at most `maxAddresses` addresses remembered (the oldest
 * forgotten first: memory is bounded whatever the addresses), and at most `maxInFlight` look-ups at once. Someone
 * guessing keys gets 401 without a store query once the bucket of their address is empty.
 */
export class KeyLookupLimiter {
  readonly #buckets = new Map<string, TokenBucket>();
  readonly #perMinute: number;
  readonly #maxAddresses: number;
  readonly #maxInFlight: number;
  #inFlight = 0;

  constructor(options: KeyLookupLimiterOptions = {}) {
    this.#perMinute = options.perMinute ?? 60;
    this.#maxAddresses = options.maxAddresses ?? 10_000;
    this.#maxInFlight = options.maxInFlight ?? 16;
  }

  /** Takes one look-up for `address` (undefined: one shared bucket); false when its bucket or the in-flight cap is full. */
  tryStart(address: string | undefined): boolean {
    if (this.#perMinute <= 0 || this.#inFlight >= this.#maxInFlight) return false;
    const id = address ?? '';
    let bucket = this.#buckets.get(id);
    if (!bucket) {
      if (this.#buckets.size >= this.#maxAddresses) this.#buckets.delete(this.#buckets.keys().next().value as string);
      this.#buckets.set(id, (bucket = new TokenBucket(this.#perMinute)));
    }
    if (!bucket.tryTake(1)) return false;
    this.#inFlight++;
    return true;
  }

  /** Ends a look-up started with {@link tryStart}. */
  end(): void {
    this.#inFlight--;
  }
}
