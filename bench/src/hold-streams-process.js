// Opens argv[3] streaming chat requests to argv[2] that the upstream keeps open after the first chunk, waits until
// every one has received that chunk, reports {open}, then keeps them open until the parent says stop.
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
let open = 0;
const started = [];
for (let i = 0; i < count; i++) {
  started.push(
    request(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
      body,
      dispatcher,
    }).then(async (response) => {
      // A held stream that the gateway or the machine resets later must not end this holder with an unhandled error.
      response.body.on('error', () => {});
      const iterator = response.body[Symbol.asyncIterator]();
      await iterator.next();
      open++;
      return iterator;
    }),
  );
  if (i % 500 === 499) await new Promise((r) => setTimeout(r, 20));
}
const results = await Promise.allSettled(started);
process.send({ open, failed: results.filter((r) => r.status === 'rejected').length });
process.on('message', async () => {
  await dispatcher.destroy();
  process.exit(0);
});
