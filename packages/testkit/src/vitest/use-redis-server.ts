import { startRedis, type TestRedis } from '../servers/start-redis.js';
import { startedInBeforeAll } from './started-in-before-all.js';

/**
 * A real `redis-server` for a test file ({@link startRedis}: a free loopback port, persistence off): registers a
 * `beforeAll` that starts it and an `afterAll` that stops it, and returns it at once as a stand-in that forwards to the
 * started server (`redis.url`, `redis.stop()`, `redis.start()`); read at module level, it throws. Call it before the
 * file's own `afterAll` hooks, so that they (closing clients) run before the server stops. The `beforeAll` fails with
 * an Error naming the binary when `redis-server` is not installed.
 */
export function useRedisServer(): TestRedis {
  return startedInBeforeAll(
    'useRedisServer',
    () => startRedis(),
    (server) => server.stop(),
  );
}
