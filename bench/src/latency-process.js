// Precise latency (autocannon reports whole milliseconds): argv[2] is a JSON of {url, path, body, key, requests,
// concurrency = 1}; sends `requests` requests from `concurrency` loops, each one request after another on its own
// keep-alive connection, and prints the p50 / p99 of the time to the first body byte and to the last byte, in ms
// (microsecond resolution). The first 50 requests are an unmeasured warm-up.
import { Pool } from 'undici';

const options = JSON.parse(process.argv[2]);
const concurrency = options.concurrency ?? 1;
const origin = new URL(options.url).origin;
const basePath = new URL(options.url).pathname.replace(/\/$/, '');
const pool = new Pool(origin, { connections: concurrency });
const ttfb = [];
const ttlb = [];
let sent = 0;
async function loop() {
  while (sent < options.requests + 50) {
    const i = sent++;
    const start = process.hrtime.bigint();
    const response = await pool.request({
      path: `${basePath}${options.path}`,
      method: 'POST',
      headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
      body: options.body,
    });
    let first;
    for await (const _chunk of response.body) first ??= process.hrtime.bigint();
    const end = process.hrtime.bigint();
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    if (i < 50) continue;
    ttfb.push(Number((first ?? end) - start) / 1e6);
    ttlb.push(Number(end - start) / 1e6);
  }
}
await Promise.all(Array.from({ length: concurrency }, loop));
await pool.close();
const pct = (values, p) =>
  values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
process.stdout.write(
  `${JSON.stringify({ ttfbP50: pct(ttfb, 50), ttfbP99: pct(ttfb, 99), ttlbP50: pct(ttlb, 50), ttlbP99: pct(ttlb, 99) })}\n`,
);
