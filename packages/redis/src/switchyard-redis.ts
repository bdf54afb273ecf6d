import type { KeyChangeFeed } from '@switchyard/accounts';
import type { SharedCooldown } from '@switchyard/core';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { FailureReporter, type RedisFailureMode } from './limits-unavailable.js';
import { RedisLimiter } from './redis-limiter.js';
import { RedisResponseCacheStore } from './redis-response-cache-store.js';

/** Options of {@link SwitchyardRedis.connect} (config `redis:`). */
export interface SwitchyardRedisOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string;
  /** Prefix of every key and channel. Default `switchyard:`. */
  keyPrefix?: string;
  /** What limits do while Redis is unreachable. Default `open`. */
  onError?: RedisFailureMode;
  /** Longest wait for one Redis command, ms; a slower one fails (and `onError` applies). Default 500. */
  commandTimeoutMs?: number;
  /** Called at most once a minute while Redis fails, with the number of failures since the last call. */
  warn?: (message: string, failures: number) => void;
  /**
   * How often this replica renews its entry in the replicas' set and counts the others, ms; an entry lives three
   * beats. Default 5,000. (Joins and orderly leaves are announced, so the count does not wait for a beat.)
   */
  heartbeatMs?: number;
}

const KEYS_CHANNEL = 'keys';
/** Carries the id of a replica that joined or left the replicas' set: every other replica counts them again. */
const REPLICAS_CHANNEL = 'replicas';

/** KEYS[1]: the replicas' sorted set; ARGV: this replica's id, entry TTL ms. Returns the replicas not expired. */
const HEARTBEAT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])
`;
const COOLDOWN_CHANNEL = 'cooldown';

/**
 * One gateway's connection to Redis (ioredis): a command connection (limits) and a subscriber connection (pub/sub of
 * key changes and circuit-breaker state). Commands never queue while Redis is away: they fail at once (or after
 * `commandTimeoutMs`), and ioredis reconnects by itself (every 100 ms to 1 s), so everything recovers without a restart.
 * After a reconnect of the subscriber, key listeners are told to reload every key (changes may have been missed).
 * @see https://github.com/redis/ioredis#readme
 */
export class SwitchyardRedis implements KeyChangeFeed, SharedCooldown {
  readonly client: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #failures: FailureReporter;
  readonly #onError: RedisFailureMode;
  readonly #warn: (message: string, failures: number) => void;
  readonly #heartbeatMs: number;
  readonly #keyListeners: ((id: string | undefined) => void)[] = [];
  readonly #cooldownListeners: ((key: string, untilMs: number) => void)[] = [];
  #subscribedOnce = false;
  readonly #subscribed: Promise<void>;

  private constructor(options: SwitchyardRedisOptions) {
    this.#prefix = options.keyPrefix ?? 'switchyard:';
    this.#onError = options.onError ?? 'open';
    this.#warn = options.warn ?? (() => {});
    this.#heartbeatMs = options.heartbeatMs ?? 5_000;
    this.#failures = new FailureReporter(this.#warn);
    const common = {
      commandTimeout: options.commandTimeoutMs ?? 500,
      connectTimeout: 2_000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times: number) => Math.min(times * 100, 1_000),
      lazyConnect: false,
      protocol: 2 as const,
    };
    // The command connection sends the commands of one event-loop turn in one socket write, at the end of the turn
    // (ioredis' auto-pipelining, flushed at `setImmediate`). The limiter's turn script (the admissions and settlements
    // of many calls) is already one command sent at `setImmediate`: it is written at once, not a turn later.
    this.client = new Redis(options.url, {
      ...common,
      enableAutoPipelining: true,
      autoPipeliningIgnoredCommands: ['switchyardTurn'],
    });
    // The subscriber must queue its SUBSCRIBE until connected, and has no command timeout (it waits for messages).
    // It subscribes again itself after a reconnect: ioredis' own re-SUBSCRIBE (`autoResubscribe`) has no rejection
    // handler, so a connection closed before its reply was an unhandled rejection (redis/ioredis#2187, not released
    // in 6.0.0), which ends a Node process.
    this.#subscriber = new Redis(options.url, {
      ...common,
      commandTimeout: undefined,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      autoResubscribe: false,
    });
    const report = (error: Error) => this.#failures.report('Redis unreachable', error);
    const subscribe = () =>
      this.#subscriber
        .subscribe(this.#channel(KEYS_CHANNEL), this.#channel(COOLDOWN_CHANNEL), this.#channel(REPLICAS_CHANNEL))
        .then(() => {}, report);
    this.client.on('error', report);
    this.#subscriber.on('error', report);
    this.#subscriber.on('ready', () => {
      if (this.#subscribedOnce) {
        void subscribe();
        for (const listener of this.#keyListeners) listener(undefined);
      }
      this.#subscribedOnce = true;
    });
    this.#subscribed = subscribe();
    this.#subscriber.on('message', (channel: string, message: string) => this.#onMessage(channel, message));
  }

  /**
   * Connects and waits until both connections are ready (and subscribed), or at most `waitMs` (default 2,000): a Redis
   * that is down at startup does not stop the gateway; it is retried in the background and `onError` applies meanwhile.
   */
  static async connect(options: SwitchyardRedisOptions, waitMs = 2_000): Promise<SwitchyardRedis> {
    const redis = new SwitchyardRedis(options);
    let timer: NodeJS.Timeout | undefined;
    const ready = (client: Redis) =>
      client.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => client.once('ready', () => resolve()));
    await Promise.race([
      Promise.all([ready(redis.client), redis.#subscribed]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
    await redis.#beat();
    redis.#heartbeat = setInterval(() => void redis.#beat(), redis.#heartbeatMs).unref();
    redis.#announce();
    return redis;
  }

  #channel(name: string): string {
    return `${this.#prefix}${name}`;
  }

  /** Tells the other replicas that this one joined or left, so that they count again (errors are reported). */
  #announce(): void {
    this.client
      .publish(this.#channel(REPLICAS_CHANNEL), this.#replicaId)
      .catch((error: Error) => this.#failures.report('Redis unreachable', error));
  }

  #onMessage(channel: string, message: string): void {
    if (channel === this.#channel(REPLICAS_CHANNEL)) {
      if (message !== this.#replicaId) void this.#beat();
    } else if (channel === this.#channel(KEYS_CHANNEL)) {
      for (const listener of this.#keyListeners) listener(message);
    } else if (channel === this.#channel(COOLDOWN_CHANNEL)) {
      const separator = message.lastIndexOf(' ');
      const untilMs = Number(message.slice(separator + 1));
      if (separator > 0 && Number.isFinite(untilMs))
        for (const listener of this.#cooldownListeners) listener(message.slice(0, separator), untilMs);
    }
  }

  /** The shared limiter (see {@link RedisLimiter}); `slotTtlMs` as there (default 30,000). */
  limiter(options: { slotTtlMs?: number } = {}): RedisLimiter {
    return new RedisLimiter(this.client, {
      keyPrefix: this.#prefix,
      onError: this.#onError,
      failures: this.#failures,
      replicas: () => this.replicas,
      ...options,
    });
  }

  /**
   * How many gateway replicas use this Redis, as the last heartbeat counted them: every replica adds itself to the
   * sorted set `<prefix>replicas` every `heartbeatMs` (5 s), scored by when its entry expires (three beats later, Redis
   * time), and counts the entries not expired. A replica that joins (after its first beat) or closes publishes its id
   * on `<prefix>replicas`, and every other replica counts again at once, so a replica that started first does not
   * enforce the whole of a limit for up to a beat while Redis is down. Undefined before the first heartbeat answered;
   * while Redis is unreachable, the last count is kept.
   */
  get replicas(): number | undefined {
    return this.#replicas;
  }

  #replicas: number | undefined;
  readonly #replicaId = randomUUID();
  #heartbeat: NodeJS.Timeout | undefined;

  async #beat(): Promise<void> {
    try {
      const ttlMs = 3 * this.#heartbeatMs;
      const count = await this.client.eval(HEARTBEAT_SCRIPT, 1, `${this.#prefix}replicas`, this.#replicaId, ttlMs);
      this.#replicas = Number(count);
    } catch {
      // Redis unreachable: the last count is kept (the connection's own error is reported).
    }
  }

  /**
   * The response cache on this connection (see {@link RedisResponseCacheStore}); its failures are reported on their own,
   * at most once a minute, through `warn`.
   */
  responseCacheStore(): RedisResponseCacheStore {
    return new RedisResponseCacheStore(this.client, {
      keyPrefix: this.#prefix,
      failures: new FailureReporter(this.#warn),
    });
  }

  /** Announces that key `id` was created, changed or revoked; every replica reloads it within milliseconds. */
  async publish(id: string): Promise<void> {
    await this.client.publish(this.#channel(KEYS_CHANNEL), id);
  }

  /** Hears key changes of every replica (this one included); `undefined` asks for a reload of every key. */
  subscribe(listener: (id: string | undefined) => void): void {
    this.#keyListeners.push(listener);
  }

  /** Broadcasts that this replica opened (`untilMs` > now, unix ms) or closed (`0`) the breaker of a deployment. */
  publishCooldown(key: string, untilMs: number): void {
    this.client
      .publish(this.#channel(COOLDOWN_CHANNEL), `${key} ${untilMs}`)
      .catch((error: Error) => this.#failures.report('Redis unreachable', error));
  }

  /** Hears breaker changes of every replica. */
  subscribeCooldown(listener: (key: string, untilMs: number) => void): void {
    this.#cooldownListeners.push(listener);
  }

  /** Resolves when Redis answers PING (for readiness checks); rejects otherwise. */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  /** Closes both connections (leaving the replicas' heartbeat set first, and telling the other replicas). */
  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    await this.client.zrem(`${this.#prefix}replicas`, this.#replicaId).catch(() => {});
    await this.client.publish(this.#channel(REPLICAS_CHANNEL), this.#replicaId).catch(() => {});
    await Promise.allSettled([this.client.quit(), this.#subscriber.quit()]);
    this.client.disconnect();
    this.#subscriber.disconnect();
  }
}
