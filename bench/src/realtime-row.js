// The realtime row of `pnpm bench` (issue #35): BENCH_RT_SESSIONS (default 200) concurrent Realtime sessions
// exchanging events through a bare `ws` relay and through Switchyard, each server in its own process in front of the
// same mock Realtime upstream (another process), the clients in a fourth (realtime-load-process.js). Per server: the
// CPU time its process spent per relayed event (client events sent + server events received; user + system,
// microseconds) with every session exchanging at once, and the round trip of one event (`response.create` to
// `response.created`, ms, p50 / p99) both then (mostly queueing) and for one session alone (BENCH_RT_SEQUENTIAL
// exchanges one after the other, default 200, the other sessions open and idle), in
// BENCH_ROUNDS alternating rounds (default 3; new sessions each round) of BENCH_RT_EXCHANGES exchanges per session
// (default 10) after BENCH_RT_WARMUP unmeasured ones (default 3). Each figure is the median of the rounds, and what
// Switchyard adds is the median of each round's difference to the relay. No target: the issue names none.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BENCH_KEY } from './bench-keys.js';
import { askCpu, startChild } from './child.js';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const METRICS = ['cpuUsPerEvent', 'rttP50Ms', 'rttP99Ms', 'aloneP50Ms', 'aloneP99Ms', 'eventsPerSecond'];

/** One measured run of the clients against `server` (a started child): events, events/s, CPU µs per event, RTT. */
async function measuredRun(server, settings) {
  const load = fork(fileURLToPath(new URL('realtime-load-process.js', import.meta.url)), [
    JSON.stringify({ url: server.ready.url, key: BENCH_KEY, ...settings }),
  ]);
  const next = (field) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message?.[field] === undefined) return;
        load.off('message', onMessage);
        resolve(message[field]);
      };
      load.on('message', onMessage);
      load.once('exit', (code) => reject(new Error(`realtime-load-process exited with ${code}`)));
    });
  await next('warm');
  const cpuBefore = await askCpu(server.child);
  const result = next('result');
  load.send('go');
  const { events, seconds, rttP50Ms, rttP99Ms } = await result;
  const cpuUs = (await askCpu(server.child)) - cpuBefore;
  const latency = next('latency');
  load.send('latency');
  const alone = await latency;
  return {
    events,
    eventsPerSecond: Math.round(events / seconds),
    cpuUsPerEvent: cpuUs / events,
    rttP50Ms,
    rttP99Ms,
    aloneP50Ms: alone.rttP50Ms,
    aloneP99Ms: alone.rttP99Ms,
  };
}

/**
 * Runs the realtime row and returns `{sessions, exchanges, rounds, relay, switchyard, added}`: `relay` and
 * `switchyard` hold the medians of {@link METRICS} over the rounds and each round's `runs`; `added` is what Switchyard
 * adds per event over the relay (CPU µs, RTT ms). `options.rounds` overrides BENCH_ROUNDS; `options.quick` (`pnpm bench
 * --quick`) makes 3 exchanges per session the default.
 */
export async function realtimeRow(options = {}) {
  const settings = {
    sessions: Number(process.env.BENCH_RT_SESSIONS ?? 200),
    exchanges: Number(process.env.BENCH_RT_EXCHANGES ?? (options.quick ? 3 : 10)),
    warmup: Number(process.env.BENCH_RT_WARMUP ?? 3),
    sequential: Number(process.env.BENCH_RT_SEQUENTIAL ?? 200),
  };
  const rounds = options.rounds ?? Number(process.env.BENCH_ROUNDS ?? 3);
  const upstream = await startChild('realtime-upstream-process.js');
  const servers = {
    relay: await startChild('ws-relay-process.js', [upstream.ready.url]),
    switchyard: await startChild('realtime-gateway-process.js', [upstream.ready.url]),
  };
  const runs = { relay: [], switchyard: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 1 ? ['switchyard', 'relay'] : ['relay', 'switchyard'];
      for (const name of order) runs[name].push(await measuredRun(servers[name], settings));
    }
  } finally {
    for (const server of [servers.switchyard, servers.relay, upstream]) server.child.kill('SIGTERM');
  }
  const summary = (name) => ({
    ...Object.fromEntries(METRICS.map((key) => [key, median(runs[name].map((run) => run[key]))])),
    runs: runs[name],
  });
  const addedOf = (key) => median(runs.switchyard.map((run, i) => run[key] - runs.relay[i][key]));
  const row = { ...settings, rounds, relay: summary('relay'), switchyard: summary('switchyard') };
  row.added = Object.fromEntries(METRICS.slice(0, 5).map((key) => [key, addedOf(key)]));
  console.error(
    `  realtime x${settings.sessions} sessions: switchyard ${row.switchyard.cpuUsPerEvent.toFixed(1)} vs relay ${row.relay.cpuUsPerEvent.toFixed(1)} us CPU per event; one event's round trip +${row.added.aloneP50Ms.toFixed(2)} ms at p50 alone, +${row.added.rttP50Ms.toFixed(2)} ms with all sessions busy`,
  );
  return row;
}

/** The markdown table of {@link realtimeRow}'s result. */
export function realtimeTable(row) {
  const fmt = (n, digits) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));
  const line = (label, r) =>
    `| ${label} | ${r.eventsPerSecond ?? ''} | ${fmt(r.cpuUsPerEvent, 1)} | ${fmt(r.aloneP50Ms, 2)} | ${fmt(r.aloneP99Ms, 2)} | ${fmt(r.rttP50Ms, 2)} | ${fmt(r.rttP99Ms, 2)} |`;
  return [
    '| server | events/s (all busy) | CPU µs per event | RTT p50 ms, one session | RTT p99 ms, one session | RTT p50 ms, all busy | RTT p99 ms, all busy |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    line('bare `ws` relay', row.relay),
    line('switchyard', row.switchyard),
    line('added by switchyard (median of the rounds’ differences)', { ...row.added, eventsPerSecond: '' }),
  ].join('\n');
}
