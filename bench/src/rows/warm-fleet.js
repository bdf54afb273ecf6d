// The latency rows' warm-up: what `compareSetups` gives the side-by-side CPU rows, for servers measured one request
// at a time. V8 finishes compiling a server's hot path after a number of requests (about 15,000 for Switchyard's
// chat path, session 21's acct section of docs/performance-log.md), not after a number of seconds; a row that
// measured a few thousand sequential requests right after start-up compared a gateway still compiling against a
// floor of a few lines that compiles at once.
import { warmUp } from '../compare-setups.js';
import { BENCH_KEY } from '../payloads.js';

/**
 * Warms every server of `fleet` but `direct` (the mock upstream) one after another with `body` at 50 connections to
 * `/v1/chat/completions`: `ctx.warmup` s, then until `ctx.warmupRequests` were answered (at most 30 s each).
 * Logs and resolves with `{name: requests answered}`.
 */
export async function warmFleet(ctx, fleet, body) {
  const load = { method: 'POST', path: '/v1/chat/completions', body, connections: 50 };
  const warmed = {};
  for (const name of Object.keys(fleet.urls).filter((n) => n !== 'direct'))
    warmed[name] = await warmUp({ ...load, url: fleet.urls[name], key: BENCH_KEY }, ctx.warmup, ctx.warmupRequests);
  ctx.log(
    `warm-up (requests at 50 connections): ${Object.entries(warmed)
      .map(([n, r]) => `${n} ${r}`)
      .join(', ')}`,
  );
  return warmed;
}
