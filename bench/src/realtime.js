// `node bench/src/realtime.js`: 200 concurrent Realtime sessions (raw `ws` clients) exchanging events, through a bare
// `ws` relay and through Switchyard, each server in its own process in front of the same mock upstream (another
// process). Per target: CPU time the server spent per relayed event (client events sent + server events received;
// user + system CPU of its process, microseconds) and the round trip of one event (`response.create` sent to
// `response.created` received, ms, p50 and p99), and Switchyard's difference to the relay. Writes
// bench/results/realtime-<date>.json. Environment: BENCH_RT_SESSIONS (default 200), BENCH_RT_ROUNDS (measured rounds
// per session, default 20), BENCH_RT_WARMUP (unmeasured rounds per session, default 3).
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { BENCH_KEY } from './bench-keys.js';
import { askCpu, startChild } from './child.js';

const SESSIONS = Number(process.env.BENCH_RT_SESSIONS ?? 200);
const ROUNDS = Number(process.env.BENCH_RT_ROUNDS ?? 20);
const WARMUP = Number(process.env.BENCH_RT_WARMUP ?? 3);

/** One open session: its socket, the events it received, and a way to wait for the next event of a type. */
function openSession(origin) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/v1/realtime?model=voice`, {
      headers: { authorization: `Bearer ${BENCH_KEY}` },
      perMessageDeflate: false,
    });
    const session = { socket, received: 0, waiters: new Map() };
    socket.on('message', (data) => {
      session.received++;
      const type = JSON.parse(String(data)).type;
      const waiter = session.waiters.get(type);
      if (waiter) {
        session.waiters.delete(type);
        waiter(performance.now());
      }
    });
    session.next = (type) => new Promise((done) => session.waiters.set(type, done));
    session.next('session.created').then(() => resolve(session));
    socket.once('error', reject);
  });
}

/** One exchange: a user text item and `response.create`; resolves with the round trip to `response.created`, ms. */
async function round(session, n) {
  const created = session.next('response.created');
  const done = session.next('response.done');
  session.socket.send(
    JSON.stringify({
      type: 'conversation.item.create',
      item: {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `Round ${n}: tell me something short.` }],
      },
    }),
  );
  const sentAt = performance.now();
  session.socket.send(JSON.stringify({ type: 'response.create', response: { output_modalities: ['text'] } }));
  const rtt = (await created) - sentAt;
  await done;
  return rtt;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(name, target) {
  const sessions = [];
  for (let i = 0; i < SESSIONS; i += 50)
    sessions.push(
      ...(await Promise.all(Array.from({ length: Math.min(50, SESSIONS - i) }, () => openSession(target.ready.url)))),
    );
  await Promise.all(
    sessions.map(async (s) => {
      for (let n = 0; n < WARMUP; n++) await round(s, n);
    }),
  );
  const receivedBefore = sessions.reduce((n, s) => n + s.received, 0);
  const cpuBefore = await askCpu(target.child);
  const startedAt = performance.now();
  const rtts = (
    await Promise.all(
      sessions.map(async (s) => {
        const out = [];
        for (let n = 0; n < ROUNDS; n++) out.push(await round(s, n));
        return out;
      }),
    )
  ).flat();
  const seconds = (performance.now() - startedAt) / 1000;
  const cpuUs = (await askCpu(target.child)) - cpuBefore;
  const events = sessions.reduce((n, s) => n + s.received, 0) - receivedBefore + 2 * ROUNDS * SESSIONS;
  for (const s of sessions) s.socket.close();
  rtts.sort((a, b) => a - b);
  const row = {
    target: name,
    sessions: SESSIONS,
    events,
    eventsPerSecond: Math.round(events / seconds),
    cpuUsPerEvent: cpuUs / events,
    rttP50Ms: percentile(rtts, 50),
    rttP99Ms: percentile(rtts, 99),
  };
  console.error(`realtime bench: ${name}: ${JSON.stringify(row)}`);
  return row;
}

const upstream = await startChild('realtime-upstream-process.js');
const relay = await startChild('ws-relay-process.js', [upstream.ready.url]);
const gateway = await startChild('realtime-gateway-process.js', [upstream.ready.url]);
try {
  const rows = [await measure('ws relay', relay), await measure('switchyard', gateway)];
  const [floor, switchyard] = rows;
  const added = {
    cpuUsPerEvent: switchyard.cpuUsPerEvent - floor.cpuUsPerEvent,
    rttP50Ms: switchyard.rttP50Ms - floor.rttP50Ms,
    rttP99Ms: switchyard.rttP99Ms - floor.rttP99Ms,
  };
  const fmt = (n, d = 1) => n.toFixed(d);
  console.log(
    `| Realtime, ${SESSIONS} sessions x ${ROUNDS} exchanges | events | events/s | CPU µs/event | RTT p50 ms | RTT p99 ms |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const row of rows)
    console.log(
      `| ${row.target} | ${row.events} | ${row.eventsPerSecond} | ${fmt(row.cpuUsPerEvent)} | ${fmt(row.rttP50Ms, 2)} | ${fmt(row.rttP99Ms, 2)} |`,
    );
  console.log(
    `| added by Switchyard | | | ${fmt(added.cpuUsPerEvent)} | ${fmt(added.rttP50Ms, 2)} | ${fmt(added.rttP99Ms, 2)} |`,
  );
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(
    `${dir}realtime-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}.json`,
    `${JSON.stringify({ sessions: SESSIONS, rounds: ROUNDS, rows, added }, null, 2)}\n`,
  );
} finally {
  for (const child of [gateway, relay, upstream]) child.child.kill('SIGTERM');
}
