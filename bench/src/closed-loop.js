// Closed-loop load for the bench's measuring scripts: `loops` clients sending chat completions one after another.
import { request } from 'undici';
import { BENCH_KEY } from './payloads.js';

/**
 * Sends `count` `POST /v1/chat/completions` with `body` to `url` (a server's origin) from `loops` concurrent loops,
 * each waiting for its answer's last byte before the next, through undici's `dispatcher`, with `key` (default the
 * static bench key), to `path` (default `/v1/chat/completions`). Resolves when all are answered; rejects on any status
 * but 200.
 */
export async function closedLoop(
  url,
  count,
  body,
  dispatcher,
  loops = 10,
  key = BENCH_KEY,
  path = '/v1/chat/completions',
) {
  let left = count;
  const loop = async () => {
    while (left-- > 0) {
      const response = await request(`${url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
        dispatcher,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}: ${text}`);
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
}
