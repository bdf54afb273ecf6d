import type { LimitRequest } from '@switchyard/accounts';
import { useRedisServer } from '@switchyard/testkit/vitest';
import { afterAll } from 'vitest';
import { SwitchyardRedis } from '../src/index.js';

/**
 * A command timeout no healthy loopback round trip reaches, even on a loaded machine: a command that times out while
 * Redis is up but slow still runs in Redis, so with a short timeout (300 ms was flaky) it both admits the call as
 * "Redis unavailable" and takes a token or slot, and the counts the tests assert drift. While Redis is down commands
 * fail at once (no offline queue), so this does not slow the outage tests.
 */
export const COMMAND_TIMEOUT_MS = 2_000;

/** Options of a test's connection. */
interface ConnectOptions {
  onError?: 'open' | 'closed';
  warn?: (message: string) => void;
  commandTimeoutMs?: number;
}

/**
 * A real redis-server for the test file (started before its tests, stopped after) and `pair()`: two gateways'
 * connections with one fresh key prefix, and `connect()`: one, closed after the file's tests.
 */
export function useLimiterPairs() {
  const server = useRedisServer();
  const open: SwitchyardRedis[] = [];
  let prefixes = 0;
  afterAll(async () => {
    await Promise.all(open.map((r) => r.close()));
  });
  /** One connection with a fresh key prefix (or `keyPrefix`), closed after the file's tests. */
  async function connect(options: ConnectOptions = {}, keyPrefix = `test${++prefixes}:`) {
    const redis = await SwitchyardRedis.connect({
      url: server.url,
      keyPrefix,
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      ...options,
    });
    open.push(redis);
    return redis;
  }
  /** Two connections with one fresh key prefix; `firstOnly` (e.g. a `warn` to count) applies to the first alone. */
  async function pair(options: ConnectOptions = {}, firstOnly: ConnectOptions = {}) {
    const keyPrefix = `test${++prefixes}:`;
    return [await connect({ ...options, ...firstOnly }, keyPrefix), await connect(options, keyPrefix)] as const;
  }
  return { server, pair, connect };
}

/** A check of key `k`; `recent` (the ledger's last minute, as Accounts passes it when asked) says nothing was used. */
export const request = (overrides: Partial<LimitRequest> = {}): LimitRequest => ({
  keyId: 'k',
  rpm: null,
  tpm: null,
  tokens: 0,
  budget: null,
  recent: { requests: 0, tokens: 0 },
  ...overrides,
});
