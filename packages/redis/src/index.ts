export { ACQUIRE_SCRIPT, SETTLE_SCRIPT } from './limit-scripts.js';
export { FailureReporter, type RedisFailureMode, limitsUnavailableError } from './limits-unavailable.js';
export { RedisLimiter, type RedisLimiterOptions } from './redis-limiter.js';
export { RedisResponseCacheStore, type RedisResponseCacheStoreOptions } from './redis-response-cache-store.js';
export { SwitchyardRedis, type SwitchyardRedisOptions } from './switchyard-redis.js';
