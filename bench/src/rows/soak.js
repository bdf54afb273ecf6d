// Row `soak`: mixed load (chat, streamed chat, embeddings, errors, client aborts; see soak-load-process.js) at half
// the capacity measured for that mix on a fresh Switchyard, for 10 minutes (BENCH_SOAK_MINUTES; 1 in quick mode).
// The gateway runs with --expose-gc; its RSS and its heap after a full collection are sampled every 30 s (every
// 10 % of the run in quick mode). Targets: minute 2 against the last minute, drift <= 5 %, and no growth trend (the
// least-squares slope of the samples from minute 2 on, over that span, <= 5 % of the minute-2 value).
import { askHeap } from '../child.js';
import { startFleet } from '../fleet.js';
import { BENCH_KEY } from '../payloads.js';
import { runJson } from '../run-process.js';
import { check } from './check.js';

const MiB = 1024 * 1024;

/** Least-squares slope of `points` [{t, y}], y per unit of t. */
function slope(points) {
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.t - mt) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  return den ? num / den : 0;
}

export const soak = {
  name: 'soak',
  title: 'soak: mixed load at half capacity, RSS and heap after GC, minute 2 vs the end',
  async run(ctx) {
    const minutes = Number(process.env.BENCH_SOAK_MINUTES ?? (ctx.quick ? 1 : 10));
    const seconds = minutes * 60;
    const every = ctx.quick ? seconds / 10 : 30;
    const fleet = await startFleet(['switchyard'], { gatewayExecArgv: ['--expose-gc'] });
    try {
      const gateway = fleet.processes.switchyard.child;
      const url = fleet.urls.switchyard;
      await runJson('soak-load-process.js', { url, key: BENCH_KEY, seconds: ctx.warmup, connections: 50 });
      const capacity = await runJson('soak-load-process.js', { url, key: BENCH_KEY, seconds: 10, connections: 50 });
      const rate = capacity.rps / 2;
      ctx.log(
        `capacity of the mix ${capacity.rps.toFixed(0)} req/s; soaking ${minutes} min at ${rate.toFixed(0)} req/s`,
      );
      const start = performance.now();
      const samples = [];
      const load = runJson('soak-load-process.js', { url, key: BENCH_KEY, seconds, rate }, (seconds + 300) * 1000);
      for (let next = every; next <= seconds; next += every) {
        await new Promise((resolve) => setTimeout(resolve, start + next * 1000 - performance.now()));
        const { heapUsed, rss } = await askHeap(gateway);
        samples.push({ minute: next / 60, rssMiB: rss / MiB, heapMiB: heapUsed / MiB });
      }
      const result = await load;
      const at = (minute) =>
        samples.reduce((a, b) => (Math.abs(b.minute - minute) < Math.abs(a.minute - minute) ? b : a));
      const first = at(ctx.quick ? minutes / 5 : 2);
      const last = samples.at(-1);
      const later = samples.filter((s) => s.minute >= first.minute);
      const span = last.minute - first.minute;
      const trend = (key) => (slope(later.map((s) => ({ t: s.minute, y: s[key] }))) * span) / first[key];
      const figures = {
        minutes,
        capacityRps: capacity.rps,
        rate,
        load: result,
        samples,
        rssDrift: (last.rssMiB - first.rssMiB) / first.rssMiB,
        heapDrift: (last.heapMiB - first.heapMiB) / first.heapMiB,
        rssTrend: trend('rssMiB'),
        heapTrend: trend('heapMiB'),
      };
      ctx.log(
        `answered ${result.answered} (${JSON.stringify(result.statuses)}, ${result.aborted} aborted, ${result.dropped} dropped); RSS ${first.rssMiB.toFixed(1)} -> ${last.rssMiB.toFixed(1)} MiB, heap after GC ${first.heapMiB.toFixed(1)} -> ${last.heapMiB.toFixed(1)} MiB (minute ${first.minute} -> ${last.minute})`,
      );
      return {
        figures,
        checks: [
          check(`soak RSS drift, minute ${first.minute} -> ${last.minute}`, figures.rssDrift * 100, '<=', 5, '%'),
          check(
            `soak heap after GC drift, minute ${first.minute} -> ${last.minute}`,
            figures.heapDrift * 100,
            '<=',
            5,
            '%',
          ),
          check('soak RSS trend over that span', figures.rssTrend * 100, '<=', 5, '%'),
          check('soak heap after GC trend over that span', figures.heapTrend * 100, '<=', 5, '%'),
        ],
      };
    } finally {
      await fleet.stop();
    }
  },
};
