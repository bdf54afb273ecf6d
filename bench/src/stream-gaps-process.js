// Inter-chunk delay under many long streams: argv[2] is a JSON of {url, key, body, streams}; opens `streams` streamed
// chat requests at once (each its own connection) and times every SSE event as it arrives. Prints the p50 / p99 / max
// of the gaps between consecutive events of a stream (ms; the first event of each stream is not a gap), with the
// number of gaps and of streams that failed.
import { Agent, request } from 'undici';

const options = JSON.parse(process.argv[2]);
const dispatcher = new Agent({ connections: null, pipelining: 0, bodyTimeout: 0, headersTimeout: 0 });
const gaps = [];
let failed = 0;
async function stream() {
  const response = await request(`${options.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
    body: options.body,
    dispatcher,
  });
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  let last;
  for await (const chunk of response.body) {
    const now = performance.now();
    // Events that arrive in one read arrive together: the first of them after a gap, the rest after none.
    const events = countEvents(chunk);
    for (let i = 0; i < events; i++) {
      if (last !== undefined) gaps.push(i === 0 ? now - last : 0);
      last = now;
    }
  }
}
function countEvents(chunk) {
  let count = 0;
  for (let at = chunk.indexOf('data: '); at !== -1; at = chunk.indexOf('data: ', at + 6)) count++;
  return count;
}
await Promise.all(
  Array.from({ length: options.streams }, () =>
    stream().catch(() => {
      failed++;
    }),
  ),
);
await dispatcher.close();
gaps.sort((a, b) => a - b);
const pct = (p) => gaps[Math.min(gaps.length - 1, Math.floor((p / 100) * gaps.length))];
process.stdout.write(
  `${JSON.stringify({ p50: pct(50), p99: pct(99), max: gaps.at(-1), gaps: gaps.length, failed })}\n`,
);
