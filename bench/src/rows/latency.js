// Latency rows, each on fresh processes warmed alike (warm-fleet.js) and then measured in alternating rounds (see
// check.js `alternate`), what a server adds being the median over the rounds of that round's own difference:
// - `chat-x1`: one connection's non-streamed chat, time to the last byte at the median, Switchyard minus the floor;
// - `stream-x1`: one connection's streamed chat (100 chunks), time to the first byte at the median, likewise;
// - `p99-added`: non-streamed chat at concurrency 1, 4, 16 and 64: the p99 added over direct (the mock upstream
//   itself), Switchyard's against the Express floor's.
import { startFleet, withBase } from '../fleet.js';
import { BENCH_KEY, chatBody, streamBody } from '../payloads.js';
import { runJson } from '../run-process.js';
import { alternate, check, checkAgainst, median } from './check.js';
import { warmFleet } from './warm-fleet.js';

const NAMES = ['direct', 'proxy', 'floor', 'switchyard'];

/** Alternating rounds of latency-process.js against each server; resolves with `{name: [round, ...]}`. */
async function latencyRounds(ctx, fleet, body, concurrency) {
  return alternate(Object.keys(fleet.urls), ctx.rounds, (name) =>
    runJson('latency-process.js', {
      url: fleet.urls[name],
      path: '/v1/chat/completions',
      body,
      key: BENCH_KEY,
      requests: ctx.latencyRequests,
      concurrency,
    }),
  );
}

/** The median over rounds of `a[key] - b[key]` (ms). */
const addedOver = (rounds, a, b, key) => median(rounds[a].map((r, i) => r[key] - rounds[b][i][key]));

async function oneConnection(ctx, body, key) {
  const fleet = await startFleet(withBase(['proxy', 'floor', 'switchyard']));
  try {
    const warmed = await warmFleet(ctx, fleet, body);
    await latencyRounds({ ...ctx, rounds: 1, latencyRequests: ctx.latencyRequests / 4 }, fleet, body, 1); // warm-up
    const rounds = await latencyRounds(ctx, fleet, body, 1);
    const figures = Object.fromEntries(NAMES.map((name) => [name, { [key]: median(rounds[name].map((r) => r[key])) }]));
    figures.warmupRequests = warmed;
    figures.addedOverFloor = addedOver(rounds, 'switchyard', 'floor', key);
    if (rounds.base) {
      figures.base = { [key]: median(rounds.base.map((r) => r[key])) };
      ctx.log(`BENCH_BASE: ${key} added over the floor ${addedOver(rounds, 'base', 'floor', key).toFixed(3)} ms`);
    }
    figures.rounds = rounds;
    ctx.log(
      `${key} (ms): ${NAMES.map((n) => `${n} ${figures[n][key].toFixed(3)}`).join(', ')}; Switchyard - floor ${figures.addedOverFloor.toFixed(3)}`,
    );
    return figures;
  } finally {
    await fleet.stop();
  }
}

export const chatX1 = {
  name: 'chat-x1',
  title: 'chat, 1 connection: p50 added over the Express floor',
  async run(ctx) {
    const figures = await oneConnection(ctx, chatBody, 'ttlbP50');
    return { figures, checks: [check('chat x1 p50, added over floor', figures.addedOverFloor, '<=', 0, 'ms')] };
  },
};

export const streamX1 = {
  name: 'stream-x1',
  title: 'streamed chat, 1 connection: time to first byte added over the Express floor',
  async run(ctx) {
    const figures = await oneConnection(ctx, streamBody, 'ttfbP50');
    return {
      figures,
      checks: [check('streamed chat x1 TTFB p50, added over floor', figures.addedOverFloor, '<=', 0.05, 'ms')],
    };
  },
};

export const p99Added = {
  name: 'p99-added',
  title: 'chat at concurrency 1/4/16/64: p99 added over direct, Switchyard / Express floor',
  async run(ctx) {
    const fleet = await startFleet(['proxy', 'floor', 'switchyard']);
    const figures = {};
    const checks = [];
    try {
      figures.warmupRequests = await warmFleet(ctx, fleet, chatBody);
      await latencyRounds({ ...ctx, rounds: 1 }, fleet, chatBody, 16); // warm-up
      for (const concurrency of [1, 4, 16, 64]) {
        const rounds = await latencyRounds(ctx, fleet, chatBody, concurrency);
        const added = Object.fromEntries(
          ['proxy', 'floor', 'switchyard'].map((name) => [name, addedOver(rounds, name, 'direct', 'ttlbP99')]),
        );
        figures[`c${concurrency}`] = { added, p99: NAMES.map((name) => median(rounds[name].map((r) => r.ttlbP99))) };
        ctx.log(
          `c${concurrency}: p99 added over direct (ms): proxy ${added.proxy.toFixed(3)}, floor ${added.floor.toFixed(3)}, switchyard ${added.switchyard.toFixed(3)}`,
        );
        checks.push(checkAgainst(`chat p99 added over direct at c${concurrency}`, added.switchyard, added.floor, 1.5));
      }
    } finally {
      await fleet.stop();
    }
    return { figures, checks };
  },
};
