import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

let running: RunningServer;
let origin: string;
beforeAll(async () => {
  running = await startGatewayFromYaml(`
keys: ["sk-switchyard-readiness-0123456789"]
server: { port: 0 }
store: { sqlite: ":memory:" }
providers: { openai: { adapter: openai, api_key: sk-x-000000, base_url: "http://127.0.0.1:9/v1" } }
`);
  origin = new URL(running.url).origin;
});
afterAll(() => running.close());

const readyz = async () => {
  const res = await fetch(`${origin}/readyz`);
  return { status: res.status, body: await res.json() };
};

describe('GET /readyz checks', () => {
  it('is ready when the adapters are loaded, the gateway is not shutting down and the store answers', async () => {
    const ok = { status: 'ok' };
    expect(await readyz()).toEqual({
      status: 200,
      body: { status: 'ready', checks: { adapters: ok, shutdown: ok, store: ok } },
    });
  });

  it('takes pluggable checks and answers 503 naming the one that fails; /healthz stays 200', async () => {
    running.readiness.push({
      name: 'redis',
      check: async () => {
        throw new Error('connection refused');
      },
    });
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(body).toMatchObject({
      status: 'not_ready',
      checks: { adapters: { status: 'ok' }, redis: { status: 'failing', reason: 'connection refused' } },
    });
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    running.readiness.pop();
  });
});
