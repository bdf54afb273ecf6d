// Row `idle-streams`: 10,000 streamed chats held open through a fresh Switchyard (the upstream sends one chunk and
// then nothing): the gateway's RSS while they are held. Each stream costs the gateway two sockets, so the count is
// capped by one process's open-files limit (BENCH_FD_LIMIT, default 20,000); below 10,000 the RSS is projected from
// the cost per stream.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { askRss } from '../child.js';
import { startFleet } from '../fleet.js';
import { check } from './check.js';

const MiB = 1024 * 1024;

function holdStreams(url, count) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('../hold-streams-process.js', import.meta.url)), [url, String(count)]);
    child.once('message', (message) => resolve({ child, ...message }));
    child.once('error', reject);
  });
}

export const idleStreams = {
  name: 'idle-streams',
  title: '10,000 idle streams: gateway RSS',
  async run(ctx) {
    const fdLimit = Number(process.env.BENCH_FD_LIMIT ?? 20000);
    const requested = ctx.quick ? 1000 : 10000;
    const streams = Math.min(requested, Math.floor((fdLimit - 300) / 2));
    const fleet = await startFleet(['switchyard']);
    try {
      const gateway = fleet.processes.switchyard.child;
      const before = await askRss(gateway);
      const holder = await holdStreams(fleet.urls.switchyard, streams);
      const held = await askRss(gateway);
      holder.child.send('stop');
      const perStreamBytes = (held.rss - before.rss) / Math.max(1, holder.open);
      const figures = {
        requested,
        streams,
        open: holder.open,
        failed: holder.failed,
        rssBeforeMiB: before.rss / MiB,
        rssHeldMiB: held.rss / MiB,
        perStreamKiB: perStreamBytes / 1024,
        projected10kMiB: (before.rss + perStreamBytes * 10_000) / MiB,
      };
      ctx.log(
        `${holder.open} of ${streams} open (${holder.failed} failed): RSS ${figures.rssBeforeMiB.toFixed(0)} -> ${figures.rssHeldMiB.toFixed(0)} MiB, ${figures.perStreamKiB.toFixed(1)} KiB each, ${figures.projected10kMiB.toFixed(0)} MiB projected for 10,000`,
      );
      const failedShare = holder.failed / streams;
      return {
        figures,
        checks: [
          check('10,000 idle streams, RSS (projected from those held)', figures.projected10kMiB, '<=', 530, 'MiB'),
          check('idle streams that failed to open', failedShare, '<=', 0.01),
        ],
      };
    } finally {
      await fleet.stop();
    }
  },
};
