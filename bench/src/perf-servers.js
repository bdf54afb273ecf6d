// `node bench/src/perf-servers.js <chat|stream|accounts> [label]`: on-CPU profiles (Linux `perf`, software clock) of
// two servers under the same load, one after the other, for `summarize-perf-diff.js`. `chat` and `stream`: the Express
// floor and Switchyard, 50 connections (CONNS) of chat or streamed chat; `accounts`: Switchyard with the static key and
// with the `accounts-key` row's virtual key (Redis limits, Postgres ledger). Each server is warmed (20 s of load, WARM),
// then recorded for 8 s (SECONDS) in the middle of a longer load run. Writes bench/results/perf/<label>-<server>.data
// and a `.json` beside it (`{rps, seconds}`: the requests in the window are rps x seconds).
//
// Unlike `--cpu-prof` (wall-clock samples of the main thread, so a thread waiting for a core is charged to what it ran
// last), `perf record -e cpu-clock` counts time on a CPU only, with the kernel's part, the GC and compiler threads. The
// servers run with `--perf-basic-prof` so that JavaScript frames get names (`JS:*name` optimized, `JS:^` baseline,
// `JS:~` interpreted). Needs `perf` (Debian's `linux-perf`); software events work in VMs without hardware counters.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { rowKey, startRowServices } from './accounts-key-setup.js';
import { startChild } from './child.js';
import { startFleet, stopAll } from './fleet.js';
import { BENCH_KEY, chatBody, streamBody } from './payloads.js';
import { runJson } from './run-process.js';

const [kind = 'chat', label = kind] = process.argv.slice(2);
const connections = Number(process.env.CONNS ?? 50);
const warmSeconds = Number(process.env.WARM ?? 20);
const seconds = Number(process.env.SECONDS ?? 8);
const flags = ['--perf-basic-prof'];
const outDir = new URL('../results/perf/', import.meta.url);
mkdirSync(outDir, { recursive: true });

/** Records `seconds` of `pid` on-CPU into `path`; resolves when perf has written it. */
function record(pid, path) {
  const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', String(pid), '-o', path, '--'], {
    stdio: 'ignore',
  });
  return new Promise((resolve, reject) => {
    perf.once('error', reject);
    perf.once('spawn', () => setTimeout(() => perf.kill('SIGINT'), seconds * 1000));
    perf.once('exit', resolve);
  });
}

/** The two servers to compare: `{name, url, key, pid}` each, and what to stop afterwards. */
async function servers() {
  if (kind !== 'accounts') {
    process.env.BENCH_SERVER_FLAGS = [process.env.BENCH_SERVER_FLAGS, ...flags].filter(Boolean).join(' ');
    const fleet = await startFleet(['floor', 'switchyard']);
    const list = ['floor', 'switchyard'].map((name) => ({
      name,
      url: fleet.urls[name],
      key: BENCH_KEY,
      pid: fleet.processes[name].child.pid,
    }));
    return { list, stop: () => fleet.stop() };
  }
  const { services, upstream, yaml } = await startRowServices(false);
  const plain = await startChild('gateway-process.js', [upstream.ready.url], flags);
  const keyed = await startChild('gateway-process.js', [upstream.ready.url, yaml], flags);
  const list = [
    { name: 'static', url: plain.ready.url, key: await rowKey(plain.ready.url, true), pid: plain.child.pid },
    { name: 'virtual', url: keyed.ready.url, key: await rowKey(keyed.ready.url, false), pid: keyed.child.pid },
  ];
  return { list, stop: () => stopAll([plain, keyed, upstream, services]) };
}

const { list, stop } = await servers();
try {
  const body = kind === 'stream' ? streamBody : chatBody;
  const load = (server, duration) =>
    runJson('load-process.js', {
      url: server.url,
      key: server.key,
      method: 'POST',
      path: '/v1/chat/completions',
      body,
      connections,
      duration,
    });
  for (const server of list) await load(server, warmSeconds);
  for (const server of list) {
    const path = new URL(`${label}-${server.name}.data`, outDir).pathname;
    const running = load(server, seconds + 4);
    await sleep(2000);
    await record(server.pid, path);
    const result = await running;
    writeFileSync(path.replace(/\.data$/, '.json'), JSON.stringify({ rps: result.rps, seconds }));
    console.log(`${server.name}: ${result.rps.toFixed(0)} req/s, ${path}`);
  }
} finally {
  await stop();
}
