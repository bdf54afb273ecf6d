import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ClientCredentials, readClientCredentials, replaceSessionModel } from '../src/index.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Opens a real WebSocket upgrade with `ws` and returns what the server read from the upgrade request. */
async function credentialsOf(protocols: string[], headers: Record<string, string> = {}): Promise<ClientCredentials> {
  const server = createServer();
  servers.push(server);
  const read = new Promise<ClientCredentials>((resolve) => {
    server.on('upgrade', (request: IncomingMessage, socket) => {
      resolve(readClientCredentials(request));
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new WebSocket(`ws://127.0.0.1:${port}/v1/realtime?model=m`, protocols, { headers });
  client.on('error', () => {});
  return read;
}

describe('the key of a Realtime upgrade, as the SDKs send it', () => {
  it('reads Authorization: Bearer (server-side SDKs)', async () => {
    const credentials = await credentialsOf(['realtime'], { authorization: 'Bearer sk-gateway-key' });
    expect(credentials).toEqual({ authorization: 'Bearer sk-gateway-key', protocols: ['realtime'], beta: false });
  });

  it('reads the openai-insecure-api-key subprotocol (browsers) and never keeps it among the protocols', async () => {
    const credentials = await credentialsOf([
      'realtime',
      'openai-insecure-api-key.sk-browser-key',
      'openai-beta.realtime-v1',
    ]);
    expect(credentials.authorization).toBe('Bearer sk-browser-key');
    expect(credentials.protocols).toEqual(['realtime', 'openai-beta.realtime-v1']);
    expect(credentials.beta).toBe(true);
  });

  it('has no authorization when neither is sent', async () => {
    expect((await credentialsOf(['realtime'])).authorization).toBeUndefined();
  });
});

describe('the model name of session events', () => {
  it('replaces session.model and nothing else, and reports whether it changed', () => {
    const event = {
      type: 'session.created',
      event_id: 'e1',
      session: { model: 'gpt-realtime-2025-08-28', voice: 'alloy' },
    };
    expect(replaceSessionModel(event, 'voice-agent')).toBe(true);
    expect(event).toEqual({
      type: 'session.created',
      event_id: 'e1',
      session: { model: 'voice-agent', voice: 'alloy' },
    });
    expect(replaceSessionModel(event, 'voice-agent')).toBe(false);
    expect(replaceSessionModel({ type: 'response.done', response: {} }, 'voice-agent')).toBe(false);
  });
});
