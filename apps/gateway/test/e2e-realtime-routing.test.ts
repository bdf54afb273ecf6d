import { connect } from 'node:net';
import { type MockRealtimeUpstream, type TlsTerminator, startMockRealtimeUpstream } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { createAdminKey } from './helpers/admin-keys.js';
import { endSession, openSdkSession, rawUpgrade } from './helpers/realtime-clients.js';
import { type RealtimeGateway, startRealtimeGateway } from './helpers/realtime-gateway.js';

const KEY = 'sk-static-realtime-routing-0123456789';
const MASTER = 'sk-master-realtime-routing-0123456789';

/** Two healthy mock upstreams (`east`, `west`), one refusing every handshake with 503 and one with 401. */
let east: MockRealtimeUpstream;
let west: MockRealtimeUpstream;
let down: MockRealtimeUpstream;
let badKey: MockRealtimeUpstream;
let gateway: RealtimeGateway;
let running: RunningServer;
let tls: TlsTerminator;
let wsOrigin: string;

beforeAll(async () => {
  [east, west, down, badKey] = await Promise.all([
    startMockRealtimeUpstream(),
    startMockRealtimeUpstream(),
    startMockRealtimeUpstream({ refuse: { status: 503, body: 'overloaded' } }),
    startMockRealtimeUpstream({ refuse: { status: 401, body: 'bad key' } }),
  ]);
  const provider = (m: MockRealtimeUpstream) =>
    `{ adapter: openai, api_key: sk-up-000000000000, base_url: "${m.baseURL}" }`;
  gateway = await startRealtimeGateway(`
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
routing: { cooldown: { failures: 3, seconds: 60 } }
providers:
  east: ${provider(east)}
  west: ${provider(west)}
  down: ${provider(down)}
  badkey: ${provider(badKey)}
models:
  - id: rr-voice
    strategy: round-robin
    targets: [{ provider: east, upstream: gpt-realtime }, { provider: west, upstream: gpt-realtime }]
  - id: busy-voice
    strategy: least-busy
    targets: [{ provider: east, upstream: gpt-realtime-busy }, { provider: west, upstream: gpt-realtime-busy }]
  - id: capped-voice
    max_concurrency: 1
    targets: [{ provider: east, upstream: gpt-realtime-capped }, { provider: west, upstream: gpt-realtime-capped }]
  - id: failing-voice
    strategy: round-robin
    targets: [{ provider: down, upstream: gpt-realtime }, { provider: west, upstream: gpt-realtime-failover }]
  - id: auth-voice
    targets: [{ provider: badkey, upstream: gpt-realtime, weight: 100 }, { provider: east, upstream: gpt-realtime-auth, weight: 0.01 }]
  - { id: only-down, provider: down, upstream: gpt-realtime-down }
  - { id: main-voice, provider: down, upstream: gpt-realtime-main, fallbacks: [backup-voice] }
  - { id: backup-voice, provider: west, upstream: gpt-realtime-backup }
`);
  ({ running, tls, wsOrigin } = gateway);
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([east, west, down, badKey].map((m) => m?.close()));
});

/** How many sessions each mock accepted for `upstreamModel` (from the handshake URL's `model`). */
const accepted = (mock: MockRealtimeUpstream, upstreamModel: string) =>
  mock.connections.filter((c) => new URL(c.url, 'http://mock').searchParams.get('model') === upstreamModel).length;

/** Opens a session with the official SDK, waits for `session.created`, and returns a way to close it. */
async function session(model: string) {
  const opened = openSdkSession(tls, KEY, model);
  await opened.next('session.created');
  return {
    close: async () => {
      await endSession(opened);
    },
  };
}

/** Sessions the gateway holds now (closing a client is seen by the gateway a moment later). */
const openSessions = () => running.realtime!.size;

describe('/v1/realtime sessions routed over a model’s realtime deployments', () => {
  it('balances sessions round-robin over two upstreams', async () => {
    for (let i = 0; i < 6; i++) await (await session('rr-voice')).close();
    expect([accepted(east, 'gpt-realtime'), accepted(west, 'gpt-realtime')]).toEqual([3, 3]);
  });

  it('counts open sessions for least-busy: a second concurrent session goes to the other upstream', async () => {
    const first = await session('busy-voice');
    const second = await session('busy-voice');
    expect([accepted(east, 'gpt-realtime-busy'), accepted(west, 'gpt-realtime-busy')]).toEqual([1, 1]);
    await first.close();
    await second.close();
  });

  it('keeps max_concurrency per deployment: a third concurrent session gets 429 deployments_at_capacity', async () => {
    const first = await session('capped-voice');
    const second = await session('capped-voice');
    expect([accepted(east, 'gpt-realtime-capped'), accepted(west, 'gpt-realtime-capped')]).toEqual([1, 1]);
    const third = await rawUpgrade(`${wsOrigin}/v1/realtime?model=capped-voice`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect('refused' in third && third.refused.status).toBe(429);
    expect('refused' in third && third.refused.body.error.code).toBe('deployments_at_capacity');
    await first.close();
    await expect.poll(openSessions).toBe(1);
    const again = await session('capped-voice');
    await again.close();
    await second.close();
  });

  it('falls over to the next upstream when a handshake is refused, and skips it once its breaker opens', async () => {
    const before = down.refused;
    for (let i = 0; i < 8; i++) await (await session('failing-voice')).close();
    // Round-robin starts at the failing upstream every other session: sessions 1, 3 and 5 tried it first and
    // failed over; the third failure opened its breaker, so session 7 went to west directly.
    expect(accepted(west, 'gpt-realtime-failover')).toBe(8);
    expect(down.refused - before).toBe(3);
    expect(running.gateway.health.isCoolingDown('down/gpt-realtime')).toBe(true);
  });

  it('falls over when the upstream rejects the gateway’s key (401), and to a fallback model', async () => {
    await (await session('auth-voice')).close();
    expect(badKey.refused).toBeGreaterThanOrEqual(1);
    expect(accepted(east, 'gpt-realtime-auth')).toBe(1);
    await (await session('main-voice')).close();
    expect(accepted(west, 'gpt-realtime-backup')).toBe(1);
  });

  it('answers the upstream’s failure when every deployment failed, and books it', async () => {
    const answer = await rawUpgrade(`${wsOrigin}/v1/realtime?model=only-down`, {
      headers: { authorization: `Bearer ${KEY}`, 'x-request-id': 'rt-routing-all-down' },
    });
    expect('refused' in answer && answer.refused.status).toBe(502);
    expect('refused' in answer && answer.refused.body.error.message).toContain('HTTP 503');
    const rows = await running.accounts!.requests({ limit: 500 });
    expect(rows.filter((r) => r.request_id === 'rt-routing-all-down').map((r) => r.status)).toEqual([502]);
  });

  it('gives the slot and the upstream back when the client’s upgrade is malformed (no Sec-WebSocket-Key)', async () => {
    const { key } = await createAdminKey(`http://127.0.0.1:${running.port}`, MASTER, {
      name: 'one-session',
      concurrency_limit: 1,
    });
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(running.port, '127.0.0.1', () =>
        socket.write(
          `GET /v1/realtime?model=rr-voice HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${key}\r\n\r\n`,
        ),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text.split('\r\n')[0]!));
      socket.on('error', reject);
    });
    expect(status).toBe('HTTP/1.1 400 Bad Request');
    // The same key's one concurrency slot is free again.
    const next = await rawUpgrade(`${wsOrigin}/v1/realtime?model=rr-voice`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect('socket' in next).toBe(true);
    if ('socket' in next) {
      next.socket.close();
      await next.received.closed;
    }
  });
});
