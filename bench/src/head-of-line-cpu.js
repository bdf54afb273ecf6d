// `node bench/src/head-of-line-cpu.js [seconds]`: where the machine's cores go during the `head-of-line` row's load.
// Starts the mock upstream and a server (Switchyard, then the Express floor), warms each as the row does, then runs the
// row's load without and with the eight 400 KB prompt loops, `seconds` each (default 10), and prints the CPU time
// (percent of one core) of the server process and of the mock upstream process (`askCpu`), and of the rest of the
// machine (the load generator, the bench itself and the kernel's own work: /proc/stat's busy time less theirs), with the small streams' time to first
// byte p99 and the large prompts answered. A machine whose cores are all busy without the large prompts can only give
// them their share by taking it from the small streams.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { askCpu } from './child.js';
import { startFleet } from './fleet.js';
import { streamBody } from './payloads.js';
import { runJson } from './run-process.js';
import { headOfLineLoad, LARGE_LOOPS } from './rows/head-of-line.js';
import { warmFleet } from './rows/warm-fleet.js';

const seconds = Number(process.argv[2] ?? 10);
/** Microseconds per clock tick of /proc/stat (USER_HZ, 100 ticks per second). */
const US_PER_TICK = 10_000;

/** Busy CPU time of the whole machine so far, all cores (/proc/stat `cpu` line: all but idle and iowait), in us. */
function machineUs() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return US_PER_TICK * (values.slice(0, 8).reduce((sum, v) => sum + v, 0) - values[3] - values[4]);
}

for (const server of ['switchyard', 'floor']) {
  const fleet = await startFleet([server]);
  try {
    await warmFleet({ warmup: 8, warmupRequests: 20000, log: () => {} }, fleet, streamBody);
    for (const large of [0, LARGE_LOOPS]) {
      const children = { server: fleet.processes[server].child, upstream: fleet.processes.direct.child };
      const cpuNow = async () => ({
        server: await askCpu(children.server),
        upstream: await askCpu(children.upstream),
        all: machineUs(),
      });
      const started = performance.now();
      const before = await cpuNow();
      const result = await runJson('head-of-line-process.js', headOfLineLoad(fleet.urls[server], large, seconds));
      const after = await cpuNow();
      const wallUs = (performance.now() - started) * 1000;
      const pct = (us) => `${((100 * us) / wallUs).toFixed(0)} %`;
      const used = {
        server: after.server - before.server,
        upstream: after.upstream - before.upstream,
        all: after.all - before.all,
      };
      console.log(
        `${server}, ${large} large loops: server ${pct(used.server)}, mock upstream ${pct(used.upstream)}, rest ${pct(used.all - used.server - used.upstream)}, machine ${pct(used.all)} of ${100 * availableParallelism()} %; small streams TTFB p99 ${result.ttfbP99.toFixed(1)} ms (${result.small} answered), ${result.large} large answered`,
      );
    }
  } finally {
    await fleet.stop();
  }
}
