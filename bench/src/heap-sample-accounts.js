// `node bench/src/heap-sample-accounts.js [requests] [static]`: the bytes Switchyard allocates per non-streamed chat
// with the `accounts-key` row's virtual key (rpm, tpm and a daily budget limited in Redis, ledger in Postgres), or
// with the static key when `static` is given, by allocation site, from V8's sampling heap profiler (objects later
// collected included), over `requests` chats on 10 connections (CONNECTIONS=<n>; the row uses 50) after a warm-up;
// with BENCH_BASE, that checkout's gateway beside it, on the same Redis and Postgres. SITES=<n> prints n sites (25).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { startChild } from './child.js';
import { stopAll } from './fleet.js';
import { BENCH_KEY, BENCH_MASTER_KEY, chatBody, createBenchKey } from './payloads.js';

const requests = Number(process.argv[2] ?? 5000);
const staticKey = process.argv[3] === 'static';
const connections = Number(process.env.CONNECTIONS ?? 10);
const dispatcher = new Agent({ connections, pipelining: 1 });
const gateways = { switchyard: fileURLToPath(new URL('gateway-process.js', import.meta.url)) };
if (process.env.BENCH_BASE) gateways.base = `${process.env.BENCH_BASE}/bench/src/gateway-process.js`;

/** Sends `count` chats from `connections` loops, each waiting for its answer's last byte; throws on any status but 200. */
async function load(url, key, count) {
  let left = count;
  const loop = async () => {
    while (left-- > 0) {
      const response = await request(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: chatBody,
        dispatcher,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`chat answered ${response.statusCode}: ${text}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
}

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

/** Bytes by allocation site (function, file, line) and by package, largest first. */
function bySite(profile) {
  const sites = new Map();
  const packages = new Map();
  const walk = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*node_modules\/\.pnpm\//, '').replace(/^file:\/\/.*?\/(packages|apps)\//, '$1/');
    const site = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    const pkg = file.match(/^(packages\/[^/]+|apps\/[^/]+|@?[^/@]+)/)?.[1] ?? (url || '(native)');
    const bytes = node.selfSize ?? 0;
    if (bytes) {
      sites.set(site, (sites.get(site) ?? 0) + bytes);
      packages.set(pkg, (packages.get(pkg) ?? 0) + bytes);
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(profile.head);
  const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return { sites: sorted(sites), packages: sorted(packages) };
}

const services = await startChild('services-process.js');
const upstream = await startChild('upstream-process.js');
const { redis, postgres } = services.ready;
const yaml = staticKey
  ? ''
  : `admin: { master_key: "${BENCH_MASTER_KEY}" }\nstore: { postgres: "${postgres}" }\nredis: { url: "${redis}" }\n`;
try {
  for (const [name, script] of Object.entries(gateways)) {
    const gateway = await startChild('heap-sampled-gateway-process.js', [script, upstream.ready.url, yaml]);
    try {
      const key = staticKey
        ? BENCH_KEY
        : await createBenchKey(gateway.ready.url, {
            rpm_limit: 1_000_000_000,
            tpm_limit: 1_000_000_000,
            budget_usd: 1_000_000,
            budget_period: 'day',
          });
      await load(gateway.ready.url, key, 2000);
      await ask(gateway.child, 'heap-sample-start', 'heapSampling');
      await load(gateway.ready.url, key, requests);
      const profile = await ask(gateway.child, 'heap-sample-stop', 'heapProfile');
      const { sites, packages } = bySite(profile);
      const total = sites.reduce((sum, [, bytes]) => sum + bytes, 0);
      // SITES_OUT=<dir>: every site's bytes per request, <dir>/<name>-<static|key>.json (to diff two builds or keys).
      if (process.env.SITES_OUT)
        writeFileSync(
          `${process.env.SITES_OUT}/${name}-${staticKey ? 'static' : 'key'}.json`,
          JSON.stringify(Object.fromEntries(sites.map(([site, bytes]) => [site, bytes / requests]))),
        );
      console.log(`${name}: ${Math.round(total / requests)} bytes allocated per request (sampled); by package:`);
      for (const [pkg, bytes] of packages.slice(0, 14))
        console.log(`  ${String(Math.round(bytes / requests)).padStart(6)}  ${pkg}`);
      console.log('  top sites:');
      for (const [site, bytes] of sites.slice(0, Number(process.env.SITES ?? 25))) {
        console.log(`  ${String(Math.round(bytes / requests)).padStart(6)}  ${site}`);
      }
    } finally {
      await stopAll([gateway]);
    }
  }
} finally {
  await dispatcher.close();
  await stopAll([upstream, services]);
}
