// The clients of the realtime bench row in their own process (forked by realtime-row.js): argv[2] is a JSON of
// {url, key, sessions, exchanges, warmup, sequential}. Opens `sessions` Realtime sessions (raw `ws` clients, 50 at a
// time), runs `warmup` unmeasured exchanges on each, tells the parent `{warm: true}`, and on its next message runs
// `exchanges` measured exchanges on every session at once; then sends `{result}`: events relayed (client events sent +
// server events received), the wall time (s), and the round trip of each exchange (`response.create` sent to
// `response.created` received, ms, p50 and p99). On the next message, `sequential` exchanges on one session, one after
// the other (the other sessions open and idle), and `{latency}`: their round trips' p50 and p99 (ms).
// One exchange: a user text item, then `response.create`, until `response.done`.
import WebSocket from 'ws';

const options = JSON.parse(process.argv[2]);

/** One open session: its socket, the events it received, and a way to wait for the next event of a type. */
function openSession() {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${options.url.replace(/^http/, 'ws')}/v1/realtime?model=voice`, {
      headers: { authorization: `Bearer ${options.key}` },
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

/** One exchange; resolves with its round trip to `response.created`, ms. */
async function exchange(session, n) {
  const created = session.next('response.created');
  const done = session.next('response.done');
  session.socket.send(
    JSON.stringify({
      type: 'conversation.item.create',
      item: {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `Exchange ${n}: say something short.` }],
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

const sessions = [];
for (let i = 0; i < options.sessions; i += 50)
  sessions.push(...(await Promise.all(Array.from({ length: Math.min(50, options.sessions - i) }, openSession))));
await Promise.all(
  sessions.map(async (s) => {
    for (let n = 0; n < options.warmup; n++) await exchange(s, n);
  }),
);
process.send({ warm: true });
await new Promise((resolve) => process.once('message', resolve));
const receivedBefore = sessions.reduce((n, s) => n + s.received, 0);
const startedAt = performance.now();
const rtts = (
  await Promise.all(
    sessions.map(async (s) => {
      const out = [];
      for (let n = 0; n < options.exchanges; n++) out.push(await exchange(s, n));
      return out;
    }),
  )
).flat();
const seconds = (performance.now() - startedAt) / 1000;
const events = sessions.reduce((n, s) => n + s.received, 0) - receivedBefore + 2 * options.exchanges * sessions.length;
rtts.sort((a, b) => a - b);
process.send({ result: { events, seconds, rttP50Ms: percentile(rtts, 50), rttP99Ms: percentile(rtts, 99) } });
// Then the latency of one event without queueing: one session's exchanges one after the other, the others idle.
await new Promise((resolve) => process.once('message', resolve));
const alone = [];
for (let n = 0; n < options.sequential; n++) alone.push(await exchange(sessions[0], n));
alone.sort((a, b) => a - b);
process.send({ latency: { rttP50Ms: percentile(alone, 50), rttP99Ms: percentile(alone, 99) } });
for (const s of sessions) s.socket.close();
process.disconnect();
