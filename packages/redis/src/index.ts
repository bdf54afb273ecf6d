export { ACQUIRE_SCRIPT, SETTLE_SCRIPT } from './limit-scripts.js';
export { FailureReporter, type RedisFailureMode, limitsUnavailableError } from './limits-unavailable.js';
export { RedisLimiter, type RedisLimiterOptions } from './redis-limiter.js';
export { SwitchyardRedis, type SwitchyardRedisOptions } from './switchyard-redis.js';
