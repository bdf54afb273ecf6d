// `node bench/src/heap-sample-chat.js [requests] [stream]`: the bytes Switchyard allocates per non-streamed chat (or
// streamed with `stream`), by allocation site, from V8's sampling heap profiler (objects later collected included),
// over `requests` chats on 10 connections after a warm-up; with BENCH_BASE, that checkout's gateway beside it.
// Allocations per request hold still when the machine's load swings, unlike timings. HEAP_SAMPLE_SURVIVORS=1 leaves
// out what scavenges collected: the sites of what survived them (promoted; see gc-trace-chat.js).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { startChild } from './child.js';
import { askChild, bySite, printPerRequest } from './heap-sample-sites.js';
import { closedLoop } from './closed-loop.js';
import { stopAll } from './fleet.js';
import { chatBody, streamBody } from './payloads.js';

const requests = Number(process.argv[2] ?? 5000);
const body = process.argv[3] === 'stream' ? streamBody : chatBody;
const dispatcher = new Agent({ connections: 10, pipelining: 1 });
const gateways = { switchyard: fileURLToPath(new URL('gateway-process.js', import.meta.url)) };
if (process.env.BENCH_BASE) gateways.base = `${process.env.BENCH_BASE}/bench/src/gateway-process.js`;

const load = (url, count) => closedLoop(url, count, body, dispatcher);
const upstream = await startChild('upstream-process.js');
try {
  for (const [name, script] of Object.entries(gateways)) {
    const gateway = await startChild('heap-sampled-gateway-process.js', [script, upstream.ready.url]);
    try {
      await load(gateway.ready.url, 2000);
      await askChild(gateway.child, 'heap-sample-start', 'heapSampling');
      await load(gateway.ready.url, requests);
      const profile = await askChild(gateway.child, 'heap-sample-stop', 'heapProfile');
      // HEAP_PROFILE_OUT=<dir>: the profile itself, <dir>/<name>.heapprofile (opens in Chrome's DevTools).
      if (process.env.HEAP_PROFILE_OUT)
        writeFileSync(`${process.env.HEAP_PROFILE_OUT}/${name}.heapprofile`, JSON.stringify(profile));
      const { sites } = bySite(profile);
      const total = sites.reduce((sum, [, bytes]) => sum + bytes, 0);
      console.log(`${name}: ${Math.round(total / requests)} bytes allocated per request (sampled), top sites:`);
      printPerRequest(sites, requests);
    } finally {
      await stopAll([gateway]);
    }
  }
} finally {
  await dispatcher.close();
  await stopAll([upstream]);
}
