// `@switchyard/testkit/servers`: real servers started by tests.
export { freePort } from './free-port.js';
export { startPostgres, type TestPostgres } from './start-postgres.js';
export { redisServerBinary, startRedis, type TestRedis } from './start-redis.js';
