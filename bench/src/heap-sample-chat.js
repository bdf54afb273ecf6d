// `node bench/src/heap-sample-chat.js [requests] [stream]`: the bytes Switchyard allocates per non-streamed chat (or
// streamed with `stream`), by allocation site, from V8's sampling heap profiler (objects later collected included),
// over `requests` chats on 10 connections after a warm-up; with BENCH_BASE, that checkout's gateway beside it.
// Allocations per request hold still when the machine's load swings, unlike timings. HEAP_SAMPLE_SURVIVORS=1 leaves
// out what scavenges collected: the sites of what survived them (promoted; see gc-trace-chat.js).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { startChild } from './child.js';
import { closedLoop } from './closed-loop.js';
import { stopAll } from './fleet.js';
import { chatBody, streamBody } from './payloads.js';

const requests = Number(process.argv[2] ?? 5000);
const body = process.argv[3] === 'stream' ? streamBody : chatBody;
const dispatcher = new Agent({ connections: 10, pipelining: 1 });
const gateways = { switchyard: fileURLToPath(new URL('gateway-process.js', import.meta.url)) };
if (process.env.BENCH_BASE) gateways.base = `${process.env.BENCH_BASE}/bench/src/gateway-process.js`;

const load = (url, count) => closedLoop(url, count, body, dispatcher);
const ask = (child, type, key) =>
  new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.[key] === undefined) return;
      child.off('message', onMessage);
      resolve(message[key]);
    };
    child.on('message', onMessage);
    child.send({ type });
  });

/** Bytes per request by allocation site (function, file, line), largest first. */
function bySite(profile) {
  const sites = new Map();
  const walk = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\/\.pnpm\//, '').replace(/^file:\/\/.*?\/(packages|apps)\//, '$1/')}:${lineNumber + 1}`;
    const bytes = node.selfSize ?? 0;
    if (bytes) sites.set(site, (sites.get(site) ?? 0) + bytes);
    for (const child of node.children ?? []) walk(child);
  };
  walk(profile.head);
  return [...sites.entries()].sort((a, b) => b[1] - a[1]);
}

const upstream = await startChild('upstream-process.js');
try {
  for (const [name, script] of Object.entries(gateways)) {
    const gateway = await startChild('heap-sampled-gateway-process.js', [script, upstream.ready.url]);
    try {
      await load(gateway.ready.url, 2000);
      await ask(gateway.child, 'heap-sample-start', 'heapSampling');
      await load(gateway.ready.url, requests);
      const profile = await ask(gateway.child, 'heap-sample-stop', 'heapProfile');
      // HEAP_PROFILE_OUT=<dir>: the profile itself, <dir>/<name>.heapprofile (opens in Chrome's DevTools).
      if (process.env.HEAP_PROFILE_OUT)
        writeFileSync(`${process.env.HEAP_PROFILE_OUT}/${name}.heapprofile`, JSON.stringify(profile));
      const sites = bySite(profile);
      const total = sites.reduce((sum, [, bytes]) => sum + bytes, 0);
      console.log(`${name}: ${Math.round(total / requests)} bytes allocated per request (sampled), top sites:`);
      for (const [site, bytes] of sites.slice(0, Number(process.env.SITES ?? 25))) {
        console.log(`  ${String(Math.round(bytes / requests)).padStart(6)}  ${site}`);
      }
    } finally {
      await stopAll([gateway]);
    }
  }
} finally {
  await dispatcher.close();
  await stopAll([upstream]);
}
