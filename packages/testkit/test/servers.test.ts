import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startRedis } from '../src/servers/index.js';

/** Sends one inline Redis command and resolves with the first reply line. */
function redisCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
    socket.setEncoding('utf8').once('data', (data: string) => {
      resolve(data.split('\r\n')[0] as string);
      socket.end();
    });
    socket.once('error', reject);
  });
}

describe('startRedis', () => {
  it('runs a real redis-server that can be stopped and started again on the same port', async () => {
    const redis = await startRedis();
    try {
      expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
      expect(await redisCommand(redis.port, 'PING')).toBe('+PONG');
      expect(await redisCommand(redis.port, 'CONFIG GET save')).toMatch(/^\*2/);
      await redis.stop();
      await expect(redisCommand(redis.port, 'PING')).rejects.toThrow(/ECONNREFUSED/);
      await redis.start();
      expect(await redisCommand(redis.port, 'PING')).toBe('+PONG');
    } finally {
      await redis.close();
    }
  });
});
