import { Server } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// The listen backlog is the kernel's queue of connections completed before the gateway accepts them; Node's default
// (511) let a burst of 9,850 new stream connections in the bench see 10-140 of them reset. The kernel does not report
// a socket's backlog to the process, so this checks what the gateway asks `listen` for, then that it serves.
const KEY = 'sk-switchyard-backlog-0123456789';
let upstream: MockUpstream | undefined;
let running: RunningServer | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await running?.close();
  await upstream?.close();
  running = upstream = undefined;
});

async function startWith(server: string): Promise<{ listened: unknown[][]; running: RunningServer }> {
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
  const listen = vi.spyOn(Server.prototype, 'listen');
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: ${server}
providers:
  openai: { adapter: openai, api_key: sk-up-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o-mini, provider: openai }
`);
  return { listened: listen.mock.calls.filter((_call, i) => listen.mock.contexts[i] === running!.server), running };
}

describe('server.backlog', () => {
  it('listens with a backlog of 4096 by default and serves', async () => {
    const { listened, running } = await startWith('{ port: 0 }');
    expect(listened).toEqual([[{ port: 0, host: '127.0.0.1', backlog: 4096 }]]);
    const client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices).toHaveLength(1);
  });

  it('listens with the configured backlog', async () => {
    const { listened } = await startWith('{ port: 0, backlog: 1000 }');
    expect(listened).toEqual([[{ port: 0, host: '127.0.0.1', backlog: 1000 }]]);
  });
});
