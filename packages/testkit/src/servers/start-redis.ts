import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './free-port.js';

/** A real Redis server for tests (see {@link startRedis}). */
export interface TestRedis {
  port: number;
  /** `redis://127.0.0.1:PORT`. */
  url: string;
  /** Stops the server (to test an outage); its data is gone (persistence is off). */
  stop(): Promise<void>;
  /** Starts it again on the same port after {@link TestRedis.stop}. */
  start(): Promise<void>;
  /** Stops the server for good. */
  close(): Promise<void>;
}

/** Where the binary is looked for: `REDIS_SERVER`, else Debian's `/usr/bin/redis-server`. */
export function redisServerBinary(): string {
  return process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
}

/**
 * Starts Debian's `redis-server` (or `$REDIS_SERVER`) on a free loopback port with persistence off
 * (`--save '' --appendonly no`) and resolves once it accepts connections. Throws an Error naming the binary when it is
 * not installed (`apt-get install redis-server`; `./dev test` installs it) or does not start, rather than skipping.
 * @see https://redis.io/docs/latest/operate/oss_and_stack/management/config/
 */
export async function startRedis(): Promise<TestRedis> {
  const bin = redisServerBinary();
  if (!existsSync(bin))
    throw new Error(
      `redis-server is not installed (looked for ${bin}): install it with 'apt-get install redis-server' (./dev test does), or set REDIS_SERVER.`,
    );
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const server = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const fail = (why: string) =>
        reject(
          new Error(
            `Redis tests need redis-server (${bin}; apt-get install redis-server, or ./dev test): ${why}\n${output}`,
          ),
        );
      server.once('error', (error) => fail(error.message));
      server.once('exit', (code) => fail(`exited with code ${code}`));
      server.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) {
          server.removeAllListeners('exit');
          server.stdout?.removeAllListeners('data').resume();
          server.stderr?.resume();
          child = server;
          resolve();
        }
      });
    });
  const stop = async () => {
    const server = child;
    child = undefined;
    if (!server || server.exitCode !== null) return;
    await new Promise((resolve) => {
      server.once('exit', resolve);
      server.kill('SIGTERM');
    });
  };
  await start();
  // Never leave a redis-server behind when the test process ends without calling close().
  process.once('exit', () => child?.kill('SIGKILL'));
  return { port, url: `redis://127.0.0.1:${port}`, stop, start, close: stop };
}
