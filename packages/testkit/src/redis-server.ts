import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** A real `redis-server` for tests, on a loopback port, persistence off. */
export interface TestRedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: persistence is off). */
  start(): Promise<void>;
}

/** Where the binary is looked for: `REDIS_SERVER`, else Debian's `/usr/bin/redis-server`. */
export function redisServerBinary(): string {
  return process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts Debian's `redis-server` on a free loopback port with `--save '' --appendonly no` and resolves once it accepts
 * connections. Throws an Error naming the missing binary (install `redis-server`; `./dev test` does) rather than
 * skipping.
 */
export async function startRedisServer(): Promise<TestRedisServer> {
  const bin = redisServerBinary();
  if (!existsSync(bin))
    throw new Error(
      `redis-server is not installed (looked for ${bin}): install it with 'apt-get install redis-server' (./dev test does), or set REDIS_SERVER.`,
    );
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const proc = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          proc.stdout?.off('data', onData);
          proc.stdout?.resume();
          resolve();
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.resume();
      proc.once('error', reject);
      proc.once('exit', (code) =>
        reject(new Error(`redis-server exited (${code}) before it was ready: ${output.slice(-500)}`)),
      );
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
