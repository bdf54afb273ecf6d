import { startMockRealtimeUpstream } from '@switchyard/testkit';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { startServer } from '../src/start-server.js';
import { rawUpgrade } from './helpers/realtime-clients.js';

const KEY = 'sk-realtime-shutdown-0123456789';

describe('/v1/realtime at graceful shutdown', () => {
  it('ends an idle session with server_shutting_down and close code 1012, and books its response first', async () => {
    const upstream = await startMockRealtimeUpstream();
    const running = await startServer(
      parseConfig(
        `
keys: ["${KEY}"]
admin: { master_key: "sk-master-realtime-shutdown-0123" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-shutdown-0000, base_url: "${upstream.baseURL}" }
models:
  - { id: voice, provider: openai, upstream: gpt-realtime, price: { input: 4, output: 16 } }
`,
        'test.yaml',
        {},
      ),
      { logger: pino({ level: 'silent' }) },
    );
    try {
      const opened = await rawUpgrade(`ws://127.0.0.1:${running.port}/v1/realtime?model=voice`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      if (!('socket' in opened)) throw new Error(`refused: ${JSON.stringify(opened.refused)}`);
      const { socket, received } = opened;
      await received.next('session.created');
      socket.send(
        JSON.stringify({
          type: 'conversation.item.create',
          item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Before the end' }] },
        }),
      );
      socket.send(JSON.stringify({ type: 'response.create', response: { output_modalities: ['text'] } }));
      const done = (await received.next('response.done')) as { response?: { id?: string } };
      const { cut } = await running.shutdown(5_000);
      expect(cut).toBe(0);
      const error = await received.next('error');
      expect(error.error).toMatchObject({ type: 'server_error', code: 'server_shutting_down' });
      expect(await received.closed).toMatchObject({ code: 1012 });
      expect(running.realtime.size).toBe(0);
      expect(done.response?.id).toEqual(expect.any(String));
    } finally {
      await running.close().catch(() => {});
      await upstream.close();
    }
  });
});
