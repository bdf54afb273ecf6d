import { readFileSync } from 'node:fs';
import {
  type MockRealtimeUpstream,
  type TlsTerminator,
  startMockRealtimeUpstream,
  startTlsTerminator,
} from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endSession, openSdkSession, type SdkSession } from './helpers/realtime-clients.js';
import { type SpawnedGateway, spawnGateway } from './helpers/spawn-gateway.js';

const KEY = 'sk-realtime-idle-sessions-0123456789';
const SESSIONS = 1_000;

let upstream: MockRealtimeUpstream;
let gateway: SpawnedGateway;
let tls: TlsTerminator;

/** Resident set size of a process, bytes (`VmRSS` of /proc/<pid>/status). */
function rssOf(pid: number): number {
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kib) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

beforeAll(async () => {
  upstream = await startMockRealtimeUpstream();
  gateway = await spawnGateway(`
keys: ["${KEY}"]
server: { port: 0, max_connections: 4096, max_connections_per_client: 4096 }
log: { level: warn }
providers:
  openai: { adapter: openai, api_key: sk-upstream-idle-000000, base_url: "${upstream.baseURL}" }
models:
  - { id: voice, provider: openai, upstream: gpt-realtime }
`);
  tls = await startTlsTerminator(Number(new URL(gateway.origin).port));
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await tls?.close();
  await upstream?.close();
});

describe('1,000 concurrent idle realtime sessions', () => {
  it('holds them all open, each with its session.created, and reports the gateway RSS', async () => {
    const pid = gateway.child.pid!;
    // A few sessions first, so that lazily loaded code and buffers are in the baseline.
    const warm = openSdkSession(tls, KEY, 'voice');
    await warm.next('session.created');
    await endSession(warm);
    const before = rssOf(pid);
    const sessions: SdkSession[] = [];
    for (let batch = 0; batch < SESSIONS / 100; batch++) {
      const opened = Array.from({ length: 100 }, () => openSdkSession(tls, KEY, 'voice'));
      await Promise.all(opened.map((session) => session.next('session.created')));
      sessions.push(...opened);
    }
    expect(sessions).toHaveLength(SESSIONS);
    const metrics = await (await fetch(`${gateway.origin}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`^switchyard_realtime_sessions ${SESSIONS}$`, 'm'));
    const after = rssOf(pid);
    const perSession = (after - before) / SESSIONS;
    console.log(
      `realtime idle sessions: ${SESSIONS} open, gateway RSS ${(before / 2 ** 20).toFixed(1)} MiB -> ${(after / 2 ** 20).toFixed(1)} MiB, ${(perSession / 1024).toFixed(1)} KiB per session`,
    );
    // Each session is two sockets, two ws objects and a few closures: well under 200 KiB.
    expect(perSession).toBeLessThan(200 * 1024);
    // Every session still answers.
    const last = sessions.at(-1)!;
    last.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await last.next('session.updated');
    for (const session of sessions) session.rt.close();
    await Promise.all(sessions.map((session) => session.closed));
    await expect
      .poll(
        async () =>
          (await (await fetch(`${gateway.origin}/metrics`)).text()).match(/^switchyard_realtime_sessions (\d+)$/m)?.[1],
        { timeout: 20_000 },
      )
      .toBe('0');
  }, 180_000);
});
