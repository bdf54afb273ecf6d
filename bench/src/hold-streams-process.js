// Opens argv[3] streaming chat requests to argv[2] that the upstream keeps open after the first chunk, waits until
// each has either received its first event or failed, reports {open, failed}, then keeps them open until the parent
// says stop. A stream counts as open only if it answered 200 with `text/event-stream`, its first chunk arrived and it
// has not ended or failed by the time of the report; everything else (a refused connection, another status, a body
// that ended, a reset) counts as failed.
import { Agent, request } from 'undici';
import { BENCH_KEY } from './bench-keys.js';

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const dispatcher = new Agent({
  connections: null,
  pipelining: 0,
  keepAliveTimeout: 600_000,
  bodyTimeout: 0,
  headersTimeout: 0,
});
const body = JSON.stringify({ model: 'openai/hold', stream: true, messages: [{ role: 'user', content: 'hold' }] });

/**
 * Opens one stream; resolves with a function telling whether it is still open, rejects if it never was. The body is
 * read on (flowing) after its first event, so that a stream the gateway ends later is seen to end: a paused stream
 * would not emit `end` until read.
 */
async function openStream() {
  const response = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
    body,
    dispatcher,
  });
  const stream = response.body;
  let live = true;
  const ended = () => {
    live = false;
  };
  // A held stream that the gateway or the machine resets later must not end this holder with an unhandled error.
  stream.on('error', ended);
  stream.on('end', ended);
  stream.on('close', ended);
  if (response.statusCode !== 200 || !String(response.headers['content-type']).startsWith('text/event-stream')) {
    stream.resume();
    throw new Error(`status ${response.statusCode}`);
  }
  await new Promise((resolve, reject) => {
    stream.once('data', resolve);
    stream.once('end', () => reject(new Error('the stream ended before its first event')));
    stream.once('error', reject);
  });
  return () => live;
}

// Each outcome is taken as it comes: a stream that fails while later ones are still being opened must not count as
// an unhandled rejection (which would end this process).
const settle = (promise) =>
  promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason) => ({ status: 'rejected', reason }),
  );
const started = [];
for (let i = 0; i < count; i++) {
  started.push(settle(openStream()));
  if (i % 500 === 499) await new Promise((r) => setTimeout(r, 20));
}
const results = await Promise.all(started);
const open = results.filter((r) => r.status === 'fulfilled' && r.value()).length;
// Why streams failed, the commonest first: `code` of the error (ECONNRESET, UND_ERR_CONNECT_TIMEOUT...) or its message.
const reasons = new Map();
for (const result of results) {
  const reason =
    result.status === 'rejected'
      ? (result.reason?.code ?? String(result.reason?.message ?? result.reason))
      : result.value()
        ? undefined
        : 'closed after its first event';
  if (reason !== undefined) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
}
process.send({ open, failed: count - open, reasons: Object.fromEntries([...reasons].sort((a, b) => b[1] - a[1])) });
process.on('message', async () => {
  await dispatcher.destroy();
  process.exit(0);
});
