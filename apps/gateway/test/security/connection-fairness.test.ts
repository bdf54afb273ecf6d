import { request } from 'node:http';
import { type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

// Attack (issue #38, item 4): 4,200 unauthenticated slowloris sockets from one address took every connection of
// `server.max_connections` (4,096), and every new connection, /healthz included, failed with ECONNRESET while they were
// held. Now one client address holds at most `max_connections_per_client` (1,024 by default; its oldest idle
// connection makes room for its next one), and beyond `max_connections` a room of 32 connections serves health probes.
// Loopback lets a client pick its source address (127.0.0.x), so attackers and users can have different ones.
const KEY = 'sk-switchyard-fairness-0123456789';
let upstream: MockUpstream;
const gateways: RunningServer[] = [];
/** Every slowloris socket, by the gateway it attacks. */
const sockets = new Map<RunningServer, Socket[]>();

beforeAll(async () => {
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
});
afterAll(async () => {
  for (const socket of [...sockets.values()].flat()) socket.destroy();
  for (const running of gateways) await running.close();
  await upstream?.close();
});

async function startGateway(server: string): Promise<RunningServer> {
  const running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: ${server}
providers:
  openai: { adapter: openai, api_key: sk-up-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o-mini, provider: openai }
`);
  gateways.push(running);
  return running;
}

const openConnections = (running: RunningServer) =>
  new Promise<number>((resolve, reject) => running.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));

/**
 * Opens `count` slowloris sockets from `localAddress` (half a request's headers, then nothing) and resolves once each
 * has either been closed by the gateway or is held open: `held` of them.
 */
async function slowloris(
  running: RunningServer,
  localAddress: string,
  count: number,
): Promise<{ held: number; closed: number; openedInMs: number }> {
  const { port } = running;
  const started = performance.now();
  let closed = 0;
  let settled = 0;
  const all: Socket[] = [];
  await new Promise<void>((resolve) => {
    for (let i = 0; i < count; i++) {
      const socket = connect({ port, host: '127.0.0.1', localAddress });
      let done = false;
      const settle = () => {
        if (done) return;
        done = true;
        if (++settled === count) resolve();
      };
      socket.on('error', () => {});
      socket.on('close', () => {
        closed++;
        settle();
      });
      socket.on('connect', () =>
        socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n', () =>
          settle(),
        ),
      );
      all.push(socket);
    }
  });
  const openedInMs = performance.now() - started;
  const attacking = sockets.get(running) ?? [];
  sockets.set(running, attacking.concat(all));
  // Connections the gateway closed on arrival or to make room are seen closed shortly after: until then, the client
  // holds more sockets than the gateway has open.
  const held = (list: Socket[]) => list.filter((s) => !s.closed).length;
  await expect
    .poll(async () => held(sockets.get(running) ?? []) <= (await openConnections(running)), { timeout: 10_000 })
    .toBe(true);
  return { held: held(all), closed, openedInMs };
}

/** A request on a new connection from `localAddress`: its status and body (or the connection error's code). */
function call(
  port: number,
  localAddress: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method,
        path,
        agent: false,
        timeout: 10_000,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.end(payload);
  });
}

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

describe('security: connection fairness', { timeout: 60_000 }, () => {
  it('under 5,000 slowloris sockets from one address, other clients and that address are still served', async () => {
    // Slow clients get a minute to send their headers here, so the attack holds for the whole test.
    const running = await startGateway('{ port: 0, headers_timeout_ms: 60000 }');
    const attack = await slowloris(running, '127.0.0.1', 5_000);
    const open = await openConnections(running);
    console.log(
      `5,000 slowloris sockets from 127.0.0.1 opened in ${attack.openedInMs.toFixed(0)} ms: ${attack.held} held, ${attack.closed} closed by the gateway; ${open} open at the gateway`,
    );
    expect(attack.held).toBeLessThanOrEqual(1024);
    expect(open).toBeLessThanOrEqual(1024);

    // Another address: /healthz and an authenticated chat call, each on a new connection.
    const probe = await call(running.port, '127.0.0.2', 'GET', '/healthz');
    expect(probe).toMatchObject({ status: 200 });
    const answer = await call(running.port, '127.0.0.2', 'POST', '/v1/chat/completions', chat);
    expect(answer).toMatchObject({ status: 200 });
    expect(JSON.parse((answer as { body: string }).body).choices).toHaveLength(1);

    // The attacker's own address: a new connection closes its oldest idle one, so a client sharing it gets in too.
    expect(await call(running.port, '127.0.0.1', 'GET', '/healthz')).toMatchObject({ status: 200 });
    expect(await call(running.port, '127.0.0.1', 'POST', '/v1/chat/completions', chat)).toMatchObject({ status: 200 });
  });

  it('once many addresses fill max_connections, health probes still get in and other calls get an honest 503', async () => {
    const running = await startGateway(
      '{ port: 0, max_connections: 300, max_connections_per_client: 100, headers_timeout_ms: 60000 }',
    );
    let held = 0;
    for (const address of ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'])
      held += (await slowloris(running, address, 100)).held;
    expect(held).toBeLessThanOrEqual(300 + 32);
    for (const path of ['/healthz', '/readyz'])
      expect(await call(running.port, '127.0.0.2', 'GET', path)).toMatchObject({ status: 200 });
    const refused = await call(running.port, '127.0.0.2', 'POST', '/v1/chat/completions', chat);
    expect(refused).toMatchObject({ status: 503 });
    expect(JSON.parse((refused as { body: string }).body).error.code).toBe('server_busy');
  });

  it('does not cap a trusted proxy per client', async () => {
    const running = await startGateway(
      '{ port: 0, max_connections_per_client: 50, trust_proxy: ["127.0.0.7/32"], headers_timeout_ms: 60000 }',
    );
    expect((await slowloris(running, '127.0.0.7', 200)).held).toBe(200);
    expect((await slowloris(running, '127.0.0.8', 200)).held).toBe(50);
  });
});
