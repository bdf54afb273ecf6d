// `node bench/src/head-of-line-cpu.js [seconds]`: where the machine's cores go during the `head-of-line` row's load.
// Starts the mock upstream and a server (Switchyard, then the Express floor), warms each as the row does, then runs the
// row's load without and with the eight 400 KB prompt loops, `seconds` each (default 10), and prints the CPU time
// (percent of one core) of the server process, of the mock upstream process, and of the rest of the machine (the
// load generator, the bench itself and the kernel's own work), from /proc, with the small streams' time to first
// byte p99 and the large prompts answered. A machine whose cores are all busy without the large prompts can only give
// them their share by taking it from the small streams.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { startFleet } from './fleet.js';
import { BENCH_KEY, streamBody } from './payloads.js';
import { runJson } from './run-process.js';
import { warmFleet } from './rows/warm-fleet.js';

const seconds = Number(process.argv[2] ?? 10);
const ticks = 100; // USER_HZ: clock ticks per second in /proc

/** User + system clock ticks of process `pid` (/proc/<pid>/stat fields 14 and 15). */
function processTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Busy clock ticks of the whole machine, all cores (/proc/stat `cpu` line: all but idle and iowait). */
function machineTicks() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return values.slice(0, 8).reduce((sum, v) => sum + v, 0) - values[3] - values[4];
}

for (const server of ['switchyard', 'floor']) {
  const fleet = await startFleet([server]);
  try {
    await warmFleet({ warmup: 8, warmupRequests: 20000, log: () => {} }, fleet, streamBody);
    for (const large of [0, 8]) {
      const pids = { server: fleet.processes[server].child.pid, upstream: fleet.processes.direct.child.pid };
      const before = { server: processTicks(pids.server), upstream: processTicks(pids.upstream), all: machineTicks() };
      const started = performance.now();
      const result = await runJson('head-of-line-process.js', {
        url: fleet.urls[server],
        key: BENCH_KEY,
        smallBody: streamBody,
        largeBytes: 400 * 1024,
        small: 32,
        large,
        seconds,
      });
      const wall = (performance.now() - started) / 1000;
      const pct = (t) => `${((100 * t) / ticks / wall).toFixed(0)} %`;
      const used = {
        server: processTicks(pids.server) - before.server,
        upstream: processTicks(pids.upstream) - before.upstream,
        all: machineTicks() - before.all,
      };
      console.log(
        `${server}, ${large} large loops: server ${pct(used.server)}, mock upstream ${pct(used.upstream)}, rest ${pct(used.all - used.server - used.upstream)}, machine ${pct(used.all)} of ${100 * availableParallelism()} %; small streams TTFB p99 ${result.ttfbP99.toFixed(1)} ms (${result.small} answered), ${result.large} large answered`,
      );
    }
  } finally {
    await fleet.stop();
  }
}
