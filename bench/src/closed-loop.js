// Closed-loop load for the bench's measuring scripts: `loops` clients sending chat completions one after another.
import { request } from 'undici';
import { BENCH_KEY } from './payloads.js';

/**
 * Sends `count` `POST /v1/chat/completions` with `body` to `url` (a server's origin) from `loops` concurrent loops,
 * each waiting for its answer's last byte before the next, through undici's `dispatcher`. Resolves when all are answered.
 */
export async function closedLoop(url, count, body, dispatcher, loops = 10) {
  let left = count;
  const loop = async () => {
    while (left-- > 0) {
      const response = await request(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
        body,
        dispatcher,
      });
      await response.body.text();
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
}
