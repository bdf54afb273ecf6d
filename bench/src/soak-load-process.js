// Mixed load for the soak row: argv[2] is a JSON of {url, key, seconds, rate?, connections?}. Of every 11 requests:
// 4 chats, 3 streamed chats (100 chunks), 1 float embeddings call, 2 errors (a request the gateway refuses with a 400,
// an upstream 400) and 1 streamed chat (50 chunks, 10 ms apart) the client aborts after its first event. With `rate` (req/s) the
// requests are started at that pace (open loop, at most 512 in flight); without it `connections` loops send them one
// after another (closed loop: the capacity measurement). Prints {rps, sent, answered, aborted, statuses, dropped}.
import { Agent, request } from 'undici';
import { chatBody, chatBodyWith, embeddingsBody, streamBody } from './payloads.js';

const options = JSON.parse(process.argv[2]);
const dispatcher = new Agent({ connections: null, pipelining: 0 });
const MIX = [
  ['chat', chatBody],
  ['stream', streamBody],
  ['chat', chatBody],
  ['embeddings', embeddingsBody('float')],
  ['stream', streamBody],
  ['error', JSON.stringify({ model: 'bench', messages: 'not a list' })],
  ['chat', chatBody],
  ['abort', chatBodyWith('bench:slow:50:10')],
  ['stream', streamBody],
  ['chat', chatBody],
  ['error', chatBodyWith('bench:fail', false)],
];
const stats = { sent: 0, answered: 0, aborted: 0, dropped: 0, statuses: {} };
let inFlight = 0;

async function one(index) {
  const [kind, body] = MIX[index % MIX.length];
  const controller = new AbortController();
  inFlight++;
  try {
    const response = await request(
      `${options.url}${kind === 'embeddings' ? '/v1/embeddings' : '/v1/chat/completions'}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
        body,
        dispatcher,
        signal: controller.signal,
      },
    );
    stats.statuses[response.statusCode] = (stats.statuses[response.statusCode] ?? 0) + 1;
    for await (const _chunk of response.body) {
      if (kind === 'abort') {
        controller.abort();
        stats.aborted++;
        break;
      }
    }
    stats.answered++;
  } catch {
    if (!controller.signal.aborted) stats.statuses.failed = (stats.statuses.failed ?? 0) + 1;
  } finally {
    inFlight--;
  }
}

const started = performance.now();
const deadline = started + options.seconds * 1000;
if (options.rate) {
  // Open loop: start requests on schedule, catching up after a late timer; skip (count as dropped) past 512 in flight.
  const pending = new Set();
  while (performance.now() < deadline) {
    const due = Math.floor(((performance.now() - started) / 1000) * options.rate);
    while (stats.sent + stats.dropped < due) {
      if (inFlight >= 512) {
        stats.dropped++;
        continue;
      }
      const p = one(stats.sent++);
      pending.add(p);
      p.finally(() => pending.delete(p));
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(pending);
} else {
  await Promise.all(
    Array.from({ length: options.connections ?? 50 }, async () => {
      while (performance.now() < deadline) await one(stats.sent++);
    }),
  );
}
await dispatcher.close();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ rps: stats.answered / seconds, ...stats })}\n`);
