import { type MockRealtimeUpstream, type TlsTerminator, startMockRealtimeUpstream } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { createAdminKey } from './helpers/admin-keys.js';
import { endSession, openSdkSession, rawUpgrade, userTextItem } from './helpers/realtime-clients.js';
import { type RealtimeGateway, startRealtimeGateway } from './helpers/realtime-gateway.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

/** The session limits of docs/realtime.md: rpm per key, maximum length, idle timeout, back-pressure. */
const KEY = 'sk-static-realtime-limits-0123456789';
const MASTER = 'sk-master-realtime-limits-0123456789';
const MAX_BUFFERED = 256 * 1024;

let upstream: MockRealtimeUpstream;
/** A mock that stops reading each session once it is open: a slow upstream. */
let slow: MockRealtimeUpstream;
let gateway: RealtimeGateway;
let running: RunningServer;
/** A gateway with a short idle timeout and the default session length, for the back-pressure test. */
let roomy: RunningServer;
let tls: TlsTerminator;
let wsOrigin: string;

beforeAll(async () => {
  [upstream, slow] = await Promise.all([startMockRealtimeUpstream(), startMockRealtimeUpstream({ paused: true })]);
  gateway = await startRealtimeGateway(`
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
realtime: { max_session_ms: 1500, idle_timeout_ms: 400, check_interval_ms: 50 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000000000, base_url: "${upstream.baseURL}" }
models:
  - { id: voice, provider: openai, upstream: gpt-realtime }
`);
  roomy = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
realtime: { max_buffered_bytes: ${MAX_BUFFERED}, idle_timeout_ms: 1000, check_interval_ms: 50 }
providers:
  slow: { adapter: openai, api_key: sk-upstream-000000000000, base_url: "${slow.baseURL}" }
models:
  - { id: slow-voice, provider: slow, upstream: gpt-realtime }
`);
  ({ running, tls, wsOrigin } = gateway);
});

afterAll(async () => {
  await gateway?.close();
  await roomy?.close();
  await Promise.all([upstream?.close(), slow?.close()]);
});

describe('/v1/realtime session limits', () => {
  it("counts each session against the key's rpm: the third in a minute gets 429", async () => {
    const { key } = await createAdminKey(`http://127.0.0.1:${running.port}`, MASTER, { name: 'rpm-2', rpm_limit: 2 });
    for (let i = 0; i < 2; i++) {
      const session = openSdkSession(tls, key, 'voice');
      await session.next('session.created');
      await endSession(session);
    }
    const third = await rawUpgrade(`${wsOrigin}/v1/realtime?model=voice`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect('refused' in third && third.refused.status).toBe(429);
    expect('refused' in third && third.refused.body.error.code).toMatch(/rate_limit/);
    expect('refused' in third && Number(third.refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('ends an idle session after idle_timeout_ms with idle_timeout and close code 1000', async () => {
    const session = openSdkSession(tls, KEY, 'voice');
    await session.next('session.created');
    const started = Date.now();
    const error = await session.next('error');
    expect(error.error).toMatchObject({ code: 'idle_timeout' });
    expect(await session.closed).toMatchObject({ code: 1000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200); // 400 ms after the last event, less its trip to here
  });

  it('ends a busy session at max_session_ms with session_expired and close code 1008', async () => {
    const session = openSdkSession(tls, KEY, 'voice');
    await session.next('session.created');
    const started = Date.now();
    // An event every 100 ms: never idle.
    const busy = setInterval(() => session.rt.socket.readyState === 1 && session.send(userTextItem('still here')), 100);
    const error = await session.next('error');
    clearInterval(busy);
    expect(error.error).toMatchObject({ code: 'session_expired' });
    expect(await session.closed).toMatchObject({ code: 1008 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // well past the idle timeout
  });

  it('back-pressures a client that sends faster than the upstream reads (not idle meanwhile), then relays all in order', async () => {
    const opened = await rawUpgrade(`ws://127.0.0.1:${roomy.port}/v1/realtime?model=slow-voice`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    if (!('socket' in opened)) throw new Error(`refused: ${JSON.stringify(opened.refused.body)}`);
    const { socket, received } = opened;
    await received.next('session.created');
    const gatewaySession = roomy.realtime.sessions().at(-1)!;
    const chunk = Buffer.alloc(150 * 1024, 7).toString('base64'); // 200 KiB of base64 per event
    const count = 160; // 32 MiB in all
    let queuedMax = 0;

    const sampler = setInterval(() => {
      queuedMax = Math.max(queuedMax, gatewaySession.queuedBytes.toUpstream);
    }, 5);
    // The gateway runs in this process: sent a few events per turn of the event loop, so that its timers keep running.
    for (let i = 0; i < count; i++) {
      socket.send(`{"type":"input_audio_buffer.append","event_id":"a${i}","audio":"${chunk}"}`);
      if (i % 4 === 3) await new Promise((resolve) => setImmediate(resolve));
    }
    // The client's own socket holds what the gateway does not read.
    await expect.poll(() => socket.bufferedAmount, { timeout: 10_000 }).toBeGreaterThan(8 * 1024 * 1024);
    const heldBack = socket.bufferedAmount;
    // Held back longer than the idle timeout: a session whose events are waiting on a slow peer is not idle.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received.events.filter((e) => e.type === 'error')).toEqual([]);
    const connection = slow.connections.at(-1)!;
    expect(connection.received.length).toBeLessThan(count);
    connection.socket.resume();
    await expect.poll(() => connection.received.length, { timeout: 30_000 }).toBe(count);
    clearInterval(sampler);
    expect(connection.received.map((e) => e.event_id)).toEqual(Array.from({ length: count }, (_, i) => `a${i}`));
    // At most the high-water mark plus one event (and the event that crossed it) queued in the gateway.
    expect(queuedMax).toBeLessThanOrEqual(MAX_BUFFERED + 2 * (chunk.length + 100));
    console.log(
      `back-pressure: ${count} events of ${chunk.length} bytes; the client held back ${(heldBack / 2 ** 20).toFixed(1)} MiB; the gateway queued at most ${(queuedMax / 1024).toFixed(0)} KiB towards the upstream`,
    );
    socket.close();
    await received.closed;
  }, 60_000);
});
