// Head-of-line blocking: argv[2] is a JSON of {url, key, smallBody, largeBytes, small, large, seconds}; for `seconds`,
// `small` loops send small streamed chats one after another and `large` loops send streamed chats with a prompt of `largeBytes` bytes.
// Prints the p50 / p99 time to first byte of the small streams (ms) and how many of each were answered or failed.
import { Agent, request } from 'undici';
import { largeStreamBody } from './payloads.js';

const options = JSON.parse(process.argv[2]);
const largeBody = largeStreamBody(options.largeBytes);
const dispatcher = new Agent({ connections: null, pipelining: 0 });
const deadline = performance.now() + options.seconds * 1000;
const ttfb = [];
const counts = { small: 0, large: 0, failed: 0 };
async function loop(body, kind) {
  while (performance.now() < deadline) {
    const start = performance.now();
    try {
      const response = await request(`${options.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
        body,
        dispatcher,
      });
      let first;
      for await (const _chunk of response.body) first ??= performance.now();
      if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
      if (kind === 'small') ttfb.push(first - start);
      counts[kind]++;
    } catch {
      counts.failed++;
    }
  }
}
await Promise.all([
  ...Array.from({ length: options.small }, () => loop(options.smallBody, 'small')),
  ...Array.from({ length: options.large }, () => loop(largeBody, 'large')),
]);
await dispatcher.close();
ttfb.sort((a, b) => a - b);
const pct = (p) => ttfb[Math.min(ttfb.length - 1, Math.floor((p / 100) * ttfb.length))];
process.stdout.write(`${JSON.stringify({ ttfbP50: pct(50), ttfbP99: pct(99), ...counts })}\n`);
