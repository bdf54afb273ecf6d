// `node bench/src/heap-sample-accounts.js [requests] [static]`: the bytes Switchyard allocates per non-streamed chat
// with the `accounts-key` row's virtual key (rpm, tpm and a daily budget limited in Redis, ledger in Postgres), or
// with the static key when `static` is given, by allocation site, from V8's sampling heap profiler (objects later
// collected included), over `requests` chats on 10 connections (CONNECTIONS=<n>; the row uses 50) after a warm-up;
// with BENCH_BASE, that checkout's gateway beside it, on the same Redis and Postgres. SITES=<n> prints n sites (25).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { rowKey, startRowServices } from './accounts-key-setup.js';
import { startChild } from './child.js';
import { askChild, bySite, printPerRequest } from './heap-sample-sites.js';
import { stopAll } from './fleet.js';
import { closedLoop } from './closed-loop.js';
import { chatBody } from './payloads.js';

const requests = Number(process.argv[2] ?? 5000);
const staticKey = process.argv[3] === 'static';
const connections = Number(process.env.CONNECTIONS ?? 10);
const dispatcher = new Agent({ connections, pipelining: 1 });
const gateways = { switchyard: fileURLToPath(new URL('gateway-process.js', import.meta.url)) };
if (process.env.BENCH_BASE) gateways.base = `${process.env.BENCH_BASE}/bench/src/gateway-process.js`;

/** Sends `count` chats with `key` from `connections` loops (see `closedLoop`). */
const load = (url, key, count) => closedLoop(url, count, chatBody, dispatcher, connections, key);

const { services, upstream, yaml } = await startRowServices(staticKey);
try {
  for (const [name, script] of Object.entries(gateways)) {
    const gateway = await startChild('heap-sampled-gateway-process.js', [script, upstream.ready.url, yaml]);
    try {
      const key = await rowKey(gateway.ready.url, staticKey);
      await load(gateway.ready.url, key, 2000);
      await askChild(gateway.child, 'heap-sample-start', 'heapSampling');
      await load(gateway.ready.url, key, requests);
      const profile = await askChild(gateway.child, 'heap-sample-stop', 'heapProfile');
      const { sites, packages } = bySite(profile);
      const total = sites.reduce((sum, [, bytes]) => sum + bytes, 0);
      // SITES_OUT=<dir>: every site's bytes per request, <dir>/<name>-<static|key>.json (to diff two builds or keys).
      if (process.env.SITES_OUT)
        writeFileSync(
          `${process.env.SITES_OUT}/${name}-${staticKey ? 'static' : 'key'}.json`,
          JSON.stringify(Object.fromEntries(sites.map(([site, bytes]) => [site, bytes / requests]))),
        );
      console.log(`${name}: ${Math.round(total / requests)} bytes allocated per request (sampled); by package:`);
      printPerRequest(packages, requests, 14);
      console.log('  top sites:');
      printPerRequest(sites, requests);
    } finally {
      await stopAll([gateway]);
    }
  }
} finally {
  await dispatcher.close();
  await stopAll([upstream, services]);
}
