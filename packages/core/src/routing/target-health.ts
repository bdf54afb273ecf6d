import { LRUCache } from 'lru-cache';

/** Most deployments whose health is remembered; the least recently used beyond this are forgotten. */
export const MAX_TRACKED_TARGETS = 10_000;

/** Cooldown (circuit breaker) settings: after `failures` consecutive failures a target is skipped for `cooldownMs`. */
export interface CooldownPolicy {
  /** Consecutive failures that open the breaker. Default 3. */
  failures: number;
  /** How long an open breaker skips the target, ms. Default 30,000. */
  cooldownMs: number;
}

/**
 * Shares circuit-breaker state between gateway replicas (`routing.cooldown.shared`), e.g. through Redis pub/sub, so
 * that a deployment one replica saw failing is skipped by all. Core keeps no connection of its own.
 */
export interface SharedCooldown {
  /** Broadcasts that this replica opened the breaker of `key` until `untilMs` (unix ms), or closed it (`0`). */
  publishCooldown(key: string, untilMs: number): void;
  /** Registers the listener for breaker changes broadcast by any replica (this one included). */
  subscribeCooldown(listener: (key: string, untilMs: number) => void): void;
}

/** Most deployments whose breaker state is taken from other replicas without having been used here. */
const MAX_REMOTE_ONLY = 10_000;

/** First-byte times kept per deployment for percentiles (the most recent ones). */
export const FIRST_BYTE_SAMPLES = 100;
/** Fewest first-byte samples a deployment needs before {@link TargetHealth.firstBytePercentile} answers. */
export const MIN_FIRST_BYTE_SAMPLES = 20;

interface Health {
  inFlight: number;
  /** Ring buffer of the last {@link FIRST_BYTE_SAMPLES} times to first byte, ms; `next` is the slot written next. */
  samples?: { values: number[]; next: number };
  consecutiveFailures: number;
  cooldownUntil: number;
  /** Exponential moving average of time to first byte, ms (undefined before the first success). */
  latencyMs?: number;
}

const EWMA_ALPHA = 0.3;

/** A copy of one deployment's live state, as {@link TargetHealth.snapshot} returns it. */
export interface TargetHealthSnapshot {
  /** The deployment: `RouteTarget.key`, i.e. `<provider>/<upstream model>`. */
  key: string;
  /** Requests in flight to it now. */
  inFlight: number;
  /** Moving average of time to first byte, ms; undefined before the first success. */
  latencyMs?: number;
  /** Retryable failures in a row since the last success (reset to 0 when the breaker opens). */
  consecutiveFailures: number;
  /** Unix time (ms) until which the breaker is open; undefined when the target is not cooling down. */
  cooldownUntil?: number;
}

/**
 * Live state of every deployment (keyed by `RouteTarget.key`): requests in flight, a moving average of time to
 * first byte (ms), and the circuit breaker. After a cooldown the target is probed by the next request (half-open):
 * a success closes the breaker, a failure opens it again. At most {@link MAX_TRACKED_TARGETS} deployments are
 * remembered (least recently used first out), so clients sending many `<provider>/<id>` models cannot grow it.
 */
export class TargetHealth {
  readonly #state = new LRUCache<string, Health>({ max: MAX_TRACKED_TARGETS });
  #waiters = new Set<() => void>();
  /**
   * @param onCooldownChange called with a target's key and `true` when its breaker opens, `false` when it closes
   *   (a success, or the cooldown running out: checked by an unref'd timer).
   */
  readonly #shared?: SharedCooldown;

  /** @param shared carries breaker changes to and from other replicas (see {@link SharedCooldown}). */
  constructor(
    readonly policy: CooldownPolicy = { failures: 3, cooldownMs: 30_000 },
    private readonly now: () => number = Date.now,
    private readonly onCooldownChange?: (key: string, coolingDown: boolean) => void,
    shared?: SharedCooldown,
  ) {
    this.#shared = shared;
    shared?.subscribeCooldown((key, untilMs) => {
      if (!this.#state.has(key) && this.#state.size >= MAX_REMOTE_ONLY) return;
      const health = this.#get(key);
      if (health.cooldownUntil === untilMs) return;
      health.cooldownUntil = untilMs;
      if (untilMs === 0) health.consecutiveFailures = 0;
    });
  }

  #get(key: string): Health {
    let health = this.#state.get(key);
    if (!health) {
      health = { inFlight: 0, consecutiveFailures: 0, cooldownUntil: 0 };
      this.#state.set(key, health);
    }
    return health;
  }

  /** Requests currently in flight to the target. */
  inFlight(key: string): number {
    return this.#state.get(key)?.inFlight ?? 0;
  }

  /** Moving average of time to first byte, ms; undefined when unknown. */
  latencyMs(key: string): number | undefined {
    return this.#state.get(key)?.latencyMs;
  }

  /**
   * The `percentile` (0-100, nearest rank) of the deployment's last {@link FIRST_BYTE_SAMPLES} times to first byte,
   * ms; undefined until it has {@link MIN_FIRST_BYTE_SAMPLES} of them. Used by hedged requests (`hedge.after: p95`).
   */
  firstBytePercentile(key: string, percentile: number): number | undefined {
    const values = this.#state.get(key)?.samples?.values;
    if (!values || values.length < MIN_FIRST_BYTE_SAMPLES) return undefined;
    const sorted = [...values].sort((a, b) => a - b);
    const rank = Math.min(sorted.length, Math.max(1, Math.ceil((percentile / 100) * sorted.length)));
    return sorted[rank - 1];
  }

  /** Unix time (ms) at which the target's breaker closes again; 0 when it is not cooling down. */
  cooldownEndsAt(key: string): number {
    const until = this.#state.get(key)?.cooldownUntil ?? 0;
    return until > this.now() ? until : 0;
  }

  /** True while the target's breaker is open. */
  isCoolingDown(key: string): boolean {
    return (this.#state.get(key)?.cooldownUntil ?? 0) > this.now();
  }

  /**
   * The live state of `key` (zeros for a deployment never called), or of every deployment called so far when `key`
   * is absent (sorted by key; at most {@link MAX_TRACKED_TARGETS}). Copies: later calls do not change them, and taking
   * them does not count as a use.
   */
  snapshot(key: string): TargetHealthSnapshot;
  snapshot(): TargetHealthSnapshot[];
  snapshot(key?: string): TargetHealthSnapshot | TargetHealthSnapshot[] {
    const copy = (k: string): TargetHealthSnapshot => {
      const health = this.#state.peek(k);
      const until = health?.cooldownUntil ?? 0;
      return {
        key: k,
        inFlight: health?.inFlight ?? 0,
        latencyMs: health?.latencyMs,
        consecutiveFailures: health?.consecutiveFailures ?? 0,
        cooldownUntil: until > this.now() ? until : undefined,
      };
    };
    return key === undefined ? [...this.#state.keys()].sort().map(copy) : copy(key);
  }

  /** Marks the start of an attempt; call {@link settle} when it ends. */
  begin(key: string): void {
    this.#get(key).inFlight++;
  }

  /** Ends an attempt begun with {@link begin}. */
  settle(key: string): void {
    const health = this.#get(key);
    health.inFlight = Math.max(0, health.inFlight - 1);
    if (this.#waiters.size === 0) return;
    const waiters = this.#waiters;
    this.#waiters = new Set();
    for (const wake of waiters) wake();
  }

  /**
   * Resolves when any attempt settles (a slot may be free), after `ms` (ms), or when `signal` aborts, whichever comes
   * first; never rejects. Used to queue requests while every deployment is at its concurrency limit.
   */
  whenSettled(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      if (signal.aborted) return done();
      signal.addEventListener('abort', done, { once: true });
      this.#waiters.add(done);
    });
  }

  /** Records a success and its time to first byte (ms); closes the breaker. */
  success(key: string, firstByteMs: number): void {
    const health = this.#get(key);
    health.consecutiveFailures = 0;
    if (health.cooldownUntil !== 0) {
      this.onCooldownChange?.(key, false);
      this.#shared?.publishCooldown(key, 0);
    }
    health.cooldownUntil = 0;
    health.latencyMs =
      health.latencyMs === undefined ? firstByteMs : health.latencyMs + EWMA_ALPHA * (firstByteMs - health.latencyMs);
    const samples = (health.samples ??= { values: [], next: 0 });
    samples.values[samples.next] = firstByteMs;
    samples.next = (samples.next + 1) % FIRST_BYTE_SAMPLES;
  }

  /** Records a retryable failure; opens the breaker after `policy.failures` in a row. */
  failure(key: string): void {
    const health = this.#get(key);
    health.consecutiveFailures++;
    if (health.consecutiveFailures >= this.policy.failures) {
      health.cooldownUntil = this.now() + this.policy.cooldownMs;
      health.consecutiveFailures = 0;
      this.#shared?.publishCooldown(key, health.cooldownUntil);
      if (this.onCooldownChange) {
        const until = health.cooldownUntil;
        this.onCooldownChange(key, true);
        setTimeout(() => {
          if (health.cooldownUntil === until) this.onCooldownChange!(key, false);
        }, this.policy.cooldownMs).unref();
      }
    }
  }
}
