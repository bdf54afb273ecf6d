// Precise latency at one connection (autocannon reports whole milliseconds): argv[2] is a JSON of {url, path, body,
// key, requests}; sends the requests one after another on one keep-alive connection and prints the p50 / p99 of the
// time to the first body byte and to the last byte, in ms (microsecond resolution).
import { Pool } from 'undici';

const options = JSON.parse(process.argv[2]);
const origin = new URL(options.url).origin;
const basePath = new URL(options.url).pathname.replace(/\/$/, '');
const pool = new Pool(origin, { connections: 1 });
const ttfb = [];
const ttlb = [];
for (let i = 0; i < options.requests + 50; i++) {
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
  if (i < 50) continue; // warm-up
  ttfb.push(Number((first ?? end) - start) / 1e6);
  ttlb.push(Number(end - start) / 1e6);
}
await pool.close();
const pct = (values, p) =>
  values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
process.stdout.write(
  `${JSON.stringify({ ttfbP50: pct(ttfb, 50), ttfbP99: pct(ttfb, 99), ttlbP50: pct(ttlb, 50), ttlbP99: pct(ttlb, 99) })}\n`,
);
