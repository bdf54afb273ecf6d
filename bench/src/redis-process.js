// A throwaway Redis for the limiter rows: Debian's redis-server on a free loopback port, persistence off. Announces
// its URL; exits (taking redis-server with it) when the bench goes away.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { serveChild } from './child.js';

const bin = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const redis = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
redis.once('error', (error) => {
  process.stderr.write(
    `bench: redis-server (${bin}) did not start: ${error.message}; install it (apt-get install redis-server)\n`,
  );
  process.exit(1);
});
let output = '';
redis.stdout.setEncoding('utf8').on('data', (chunk) => {
  output += chunk;
  if (output.includes('Ready to accept connections')) {
    output = '';
    redis.stdout.resume();
    serveChild({ url: `redis://127.0.0.1:${port}` });
  }
});
const stop = () => {
  redis.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
