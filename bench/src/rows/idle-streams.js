// Row `idle-streams`: 10,000 streamed chats held open through a fresh Switchyard (the upstream sends one chunk and
// then nothing): the gateway's RSS while they are held. Each stream costs the gateway two sockets, so the count is
// capped by one process's open-files limit: the row raises the limit of its own process (inherited by the processes
// it starts) to what 10,000 streams need when it may (`prlimit`, with CAP_SYS_RESOURCE, which a container's root may lack), else it takes the limit it has, or
// BENCH_FD_LIMIT when set; below 10,000 the RSS is projected from the cost per stream.
import { execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { askRss } from '../child.js';
import { startFleet } from '../fleet.js';
import { check } from './check.js';

const MiB = 1024 * 1024;
/** Open files a process needs besides those of the streams (listening sockets, the log, IPC, libraries). */
const SPARE_FILES = 300;

/** This process's soft limit of open files, from /proc (Linux); undefined elsewhere. */
function openFilesLimit() {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    return Number(line?.split(/\s+/)[3]) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The open-files limit the row's processes get: BENCH_FD_LIMIT when set; else this process's limit, first raised to
 * `wanted` with `prlimit` where that is allowed (processes started later inherit it). Default 20,000 when unknown.
 */
function raiseOpenFilesLimit(wanted) {
  if (process.env.BENCH_FD_LIMIT) return Number(process.env.BENCH_FD_LIMIT);
  if ((openFilesLimit() ?? 0) < wanted) {
    try {
      execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${wanted}:${wanted}`], { stdio: 'ignore' });
    } catch {
      // Not allowed (not root) or no prlimit: the limit stays as it is.
    }
  }
  return openFilesLimit() ?? 20000;
}

function holdStreams(url, count) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('../hold-streams-process.js', import.meta.url)), [url, String(count)]);
    child.once('message', (message) => resolve({ child, ...message }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the stream holder exited with ${code} before it reported`)));
  });
}

export const idleStreams = {
  name: 'idle-streams',
  title: '10,000 idle streams: gateway RSS',
  async run(ctx) {
    const requested = ctx.quick ? 1000 : 10000;
    const fdLimit = raiseOpenFilesLimit(requested * 2 + SPARE_FILES);
    const streams = Math.min(requested, Math.floor((fdLimit - SPARE_FILES) / 2));
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
        fdLimit,
        streams,
        open: holder.open,
        failed: holder.failed,
        failureReasons: holder.reasons,
        rssBeforeMiB: before.rss / MiB,
        rssHeldMiB: held.rss / MiB,
        perStreamKiB: perStreamBytes / 1024,
        // Measured, not projected, when all 10,000 were held.
        projected10kMiB: holder.open === 10_000 ? held.rss / MiB : (before.rss + perStreamBytes * 10_000) / MiB,
      };
      ctx.log(
        `${holder.open} of ${streams} open (${holder.failed} failed): RSS ${figures.rssBeforeMiB.toFixed(0)} -> ${figures.rssHeldMiB.toFixed(0)} MiB, ${figures.perStreamKiB.toFixed(1)} KiB each, ${figures.projected10kMiB.toFixed(0)} MiB ${holder.open === 10_000 ? 'held' : 'projected'} for 10,000 (open files limit ${fdLimit})`,
      );
      if (holder.failed) ctx.log(`failed: ${JSON.stringify(holder.reasons)}`);
      const failedShare = holder.failed / streams;
      return {
        figures,
        checks: [
          check(
            '10,000 idle streams, RSS (held, or projected from those held)',
            figures.projected10kMiB,
            '<=',
            530,
            'MiB',
          ),
          check('idle streams that failed to open', failedShare, '<=', 0.01),
        ],
      };
    } finally {
      await fleet.stop();
    }
  },
};
