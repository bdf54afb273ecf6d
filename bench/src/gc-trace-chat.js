// `node bench/src/gc-trace-chat.js [requests] [stream]`: V8's garbage collections while a server answers `requests`
// (default 10,000) non-streamed chats (streamed with `stream`) on 10 connections after 2,000 unmeasured ones:
// scavenges and bytes promoted to the old space per 1,000 requests, mark-compacts per 10,000 and their pauses (from
// `--trace-gc-nvp`). Switchyard always; BENCH_BASE=<checkout> adds that checkout's gateway, GC_TRACE_FLOOR=1 the
// Express floor, GC_TRACE_BARE=1 the bare node:http proxy; GC_TRACE_FLAGS adds V8 flags (e.g.
// `--max-semi-space-size=32`, `--log-maps --logfile=v8.log`), GC_TRACE_CONFIG extra YAML for Switchyard (e.g.
// `metrics: { enabled: false }`), GC_TRACE_GET=<path> sends authenticated GETs of that path instead of chats,
// GC_TRACE_POST=<path> POSTs GC_TRACE_BODY (JSON text; default the chat body) to that path instead (e.g. a streamed
// `/v1/messages` or `/v1/responses` body, for the other front doors).
// Unlike timings these hold still when the machine's load swings: what a request leaves reachable from the old space
// across two scavenges is promoted, and the old space it fills is what a mark-compact (a pause of tens of ms) clears.
import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { startChild } from './child.js';
import { closedLoop } from './closed-loop.js';
import { stopAll } from './fleet.js';
import { BENCH_KEY, chatBody, streamBody } from './payloads.js';

const requests = Number(process.argv[2] ?? 10000);
const body = process.env.GC_TRACE_BODY ?? (process.argv[3] === 'stream' ? streamBody : chatBody);
const dispatcher = new Agent({ connections: 10, pipelining: 1 });
const here = (script) => fileURLToPath(new URL(script, import.meta.url));
const servers = { switchyard: here('gateway-process.js') };
if (process.env.BENCH_BASE) servers.base = `${process.env.BENCH_BASE}/bench/src/gateway-process.js`;
if (process.env.GC_TRACE_FLOOR) servers.floor = here('express-floor-process.js');
if (process.env.GC_TRACE_BARE) servers.bare = here('bare-proxy-process.js');

/** `count` authenticated `GET`s of GC_TRACE_GET (a path, e.g. `/v1/models`) from 10 loops. */
async function getLoop(url, count) {
  let left = count;
  const loop = async () => {
    while (left-- > 0) {
      const answer = await request(`${url}${process.env.GC_TRACE_GET}`, {
        headers: { authorization: `Bearer ${BENCH_KEY}` },
        dispatcher,
      });
      await answer.body.text();
    }
  };
  await Promise.all(Array.from({ length: 10 }, loop));
}
const load = (url, count) =>
  process.env.GC_TRACE_GET
    ? getLoop(url, count)
    : closedLoop(url, count, body, dispatcher, 10, BENCH_KEY, process.env.GC_TRACE_POST);
const flags = process.env.GC_TRACE_FLAGS?.split(' ').filter(Boolean) ?? [];

/** Starts `script` with `--trace-gc-nvp`, pushing one `{kind, pause, promoted}` per collection onto `events`. */
function tracedServer(script, args, events) {
  const child = fork(script, args, {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    execArgv: ['--trace-gc-nvp', ...flags],
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const kind = /\bgc=(\w+)/.exec(line)?.[1];
    if (!kind) return;
    const pause = Number(/\bpause=([\d.]+)/.exec(line)?.[1] ?? 0);
    const promoted = Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
    events.push({ kind, pause, promoted });
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    child.on('message', (message) => {
      if (message?.ready) resolve({ child, ready: message.ready });
    });
  });
}

/** One line of figures for `events` (the collections during `requests` requests). */
function summary(events) {
  const scavenges = events.filter((event) => event.kind === 's');
  const marks = events.filter((event) => event.kind === 'ms' || event.kind === 'mc');
  const promoted = scavenges.reduce((sum, event) => sum + event.promoted, 0);
  const per = (count, unit) => ((count * unit) / requests).toFixed(2);
  const scavengePauses = scavenges.reduce((sum, event) => sum + event.pause, 0);
  return (
    `per 1,000 requests ${per(scavenges.length, 1000)} scavenges, ${per(promoted / 1024, 1000)} KiB promoted` +
    ` (${Math.round(promoted / requests)} bytes per request); per 10,000: ${per(marks.length, 10000)} mark-compacts` +
    ` (pauses ${marks.map((event) => event.pause.toFixed(1)).join(', ') || '-'} ms); scavenge pauses` +
    ` ${scavengePauses.toFixed(0)} ms in all`
  );
}

const upstream = await startChild('upstream-process.js');
try {
  for (const [name, script] of Object.entries(servers)) {
    const events = [];
    const extra = name === 'switchyard' && process.env.GC_TRACE_CONFIG ? [process.env.GC_TRACE_CONFIG] : [];
    const server = await tracedServer(script, [upstream.ready.url, ...extra], events);
    try {
      await load(server.ready.url, 2000);
      events.length = 0;
      await load(server.ready.url, requests);
      console.log(`${name}: ${summary(events)}`);
    } finally {
      await stopAll([server]);
    }
  }
} finally {
  await dispatcher.close();
  await stopAll([upstream]);
}
