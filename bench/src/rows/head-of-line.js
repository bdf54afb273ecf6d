// Row `head-of-line`: 32 loops of small streamed chats through Switchyard, alone and with 8 loops of streamed chats
// with a 400 KB prompt beside them (a fresh gateway, alternating rounds): the small streams' time to first byte p99
// with the large prompts against without them. The Express floor runs the same rounds beside it: its own with /
// without ratio is reported as a reference (how much of the ratio a 2-core machine running client, upstream and
// server together imposes on any Node server that parses the 400 KB prompts), the target stays Switchyard's.
import { startFleet, withBase } from '../fleet.js';
import { BENCH_KEY, streamBody } from '../payloads.js';
import { runJson } from '../run-process.js';
import { alternate, check, median } from './check.js';
import { warmFleet } from './warm-fleet.js';

// With BENCH_BASE, that checkout's Switchyard runs the same rounds too (`base`), for the before and after of a change.
const SERVERS = withBase(['switchyard', 'floor']);

/** Loops of streamed chats with a 400 KB prompt beside the small streams, in the rounds "with" them. */
export const LARGE_LOOPS = 8;

/**
 * head-of-line-process.js's options for the row's load on the server at `url`: 32 loops of small streamed chats and
 * `large` loops of streamed chats with a 400 KB prompt, for `seconds`.
 */
export function headOfLineLoad(url, large, seconds) {
  return { url, key: BENCH_KEY, smallBody: streamBody, largeBytes: 400 * 1024, small: 32, large, seconds };
}

export const headOfLine = {
  name: 'head-of-line',
  title: 'head-of-line: 8 concurrent 400 KB prompts among 32 small streams: small streams TTFB p99 with / without',
  async run(ctx) {
    const fleet = await startFleet(SERVERS);
    try {
      const measure = (setup) => {
        const [server, large] = setup.split(':');
        const load = headOfLineLoad(fleet.urls[server], large === 'with' ? LARGE_LOOPS : 0, ctx.duration);
        return runJson('head-of-line-process.js', load);
      };
      const warmupRequests = await warmFleet(ctx, fleet, streamBody);
      for (const server of SERVERS) await measure(`${server}:with`); // warm-up
      const setups = SERVERS.flatMap((server) => [`${server}:without`, `${server}:with`]);
      const rounds = await alternate(setups, ctx.rounds, measure);
      const p99 = (setup) => median(rounds[setup].map((r) => r.ttfbP99));
      const figures = { rounds, warmupRequests };
      for (const server of SERVERS) {
        const without = p99(`${server}:without`);
        const withLarge = p99(`${server}:with`);
        figures[server] = { without, with: withLarge, ratio: withLarge / without };
        const large = rounds[`${server}:with`].reduce((sum, r) => sum + r.large, 0);
        ctx.log(
          `${server}: small streams TTFB p99: ${without.toFixed(2)} ms alone, ${withLarge.toFixed(2)} ms with the large prompts (${large} of them answered): ${figures[server].ratio.toFixed(2)} x`,
        );
      }
      // The figures of earlier runs (Switchyard's) stay where they were.
      figures.without = figures.switchyard.without;
      figures.with = figures.switchyard.with;
      figures.floorRatio = figures.floor.ratio;
      return {
        figures,
        checks: [
          {
            ...check('small streams TTFB p99, with / without 400 KB prompts', figures.switchyard.ratio, '<=', 2),
            reference: { label: 'Express floor', value: figures.floor.ratio },
          },
        ],
      };
    } finally {
      await fleet.stop();
    }
  },
};
