// Row `inter-chunk`: 64 concurrent streams of 500 chunks sent 10 ms apart by the upstream, direct, through the
// Express floor and through Switchyard (and BENCH_BASE's Switchyard when set; fresh processes, alternating rounds):
// the p99 gap between a stream's events as the client sees them, what each server adds over direct, Switchyard's
// against the floor's.
import { startFleet, withBase } from '../fleet.js';
import { BENCH_KEY, chatBodyWith, streamBody } from '../payloads.js';
import { runJson } from '../run-process.js';
import { alternate, checkAgainst, median } from './check.js';
import { warmFleet } from './warm-fleet.js';

export const interChunk = {
  name: 'inter-chunk',
  title: '64 streams of 500 chunks 10 ms apart: inter-chunk p99 added over direct, Switchyard vs Express floor',
  async run(ctx) {
    const { streams, chunks } = ctx.quick ? { streams: 16, chunks: 100 } : { streams: 64, chunks: 500 };
    const servers = withBase(['floor', 'switchyard']);
    const names = ['direct', ...servers];
    const fleet = await startFleet(servers);
    try {
      const body = chatBodyWith(`bench:slow:${chunks}:10`);
      const measure = (name) =>
        runJson('stream-gaps-process.js', { url: fleet.urls[name], key: BENCH_KEY, body, streams });
      const warmupRequests = await warmFleet(ctx, fleet, streamBody);
      for (const name of names) await measure(name); // warm-up
      const rounds = await alternate(names, ctx.rounds, measure);
      const added = (name) => median(rounds[name].map((r, i) => r.p99 - rounds.direct[i].p99));
      const figures = {
        streams,
        chunks,
        p99: Object.fromEntries(names.map((name) => [name, median(rounds[name].map((r) => r.p99))])),
        added: Object.fromEntries(servers.map((name) => [name, added(name)])),
        rounds,
        warmupRequests,
      };
      ctx.log(
        `p99 gap (ms): ${names.map((n) => `${n} ${figures.p99[n].toFixed(2)}`).join(', ')}; added over direct: ${servers.map((n) => `${n} ${figures.added[n].toFixed(3)}`).join(', ')}`,
      );
      return {
        figures,
        checks: [
          checkAgainst(
            `${streams} streams x ${chunks} chunks: inter-chunk p99 added over direct`,
            figures.added.switchyard,
            figures.added.floor,
            1.5,
          ),
        ],
      };
    } finally {
      await fleet.stop();
    }
  },
};
