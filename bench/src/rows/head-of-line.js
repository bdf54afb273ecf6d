// Row `head-of-line`: 32 loops of small streamed chats through Switchyard, alone and with 8 loops of streamed chats
// with a 400 KB prompt beside them (a fresh gateway, alternating rounds): the small streams' time to first byte p99
// with the large prompts against without them.
import { startFleet } from '../fleet.js';
import { BENCH_KEY, streamBody } from '../payloads.js';
import { runJson } from '../run-process.js';
import { alternate, check, median } from './check.js';

export const headOfLine = {
  name: 'head-of-line',
  title: 'head-of-line: 8 concurrent 400 KB prompts among 32 small streams: small streams TTFB p99 with / without',
  async run(ctx) {
    const fleet = await startFleet(['switchyard']);
    try {
      const measure = (name) =>
        runJson('head-of-line-process.js', {
          url: fleet.urls.switchyard,
          key: BENCH_KEY,
          smallBody: streamBody,
          largeBytes: 400 * 1024,
          small: 32,
          large: name === 'with' ? 8 : 0,
          seconds: ctx.duration,
        });
      await measure('with'); // warm-up
      const rounds = await alternate(['without', 'with'], ctx.rounds, measure);
      const p99 = (name) => median(rounds[name].map((r) => r.ttfbP99));
      const figures = { without: p99('without'), with: p99('with'), rounds };
      const large = rounds.with.reduce((sum, r) => sum + r.large, 0);
      ctx.log(
        `small streams TTFB p99: ${figures.without.toFixed(2)} ms alone, ${figures.with.toFixed(2)} ms with the large prompts (${large} of them answered)`,
      );
      return {
        figures,
        checks: [
          check('small streams TTFB p99, with / without 400 KB prompts', figures.with / figures.without, '<=', 2),
        ],
      };
    } finally {
      await fleet.stop();
    }
  },
};
