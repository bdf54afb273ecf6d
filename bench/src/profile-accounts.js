// `node bench/src/profile-accounts.js [seconds] [static]`: a --cpu-prof profile of a fresh Switchyard under 50
// connections of chat with the `accounts-key` row's virtual key (limited in Redis, ledger in Postgres), or with the
// static key when `static` is given, written to bench/results/profiles/ (for `summarize-profile*.js`). BENCH_PROF_FLAGS
// replaces the Node flags (e.g. `--heap-prof --heap-prof-dir=bench/results/profiles --heap-prof-interval=4096`).
import { startChild } from './child.js';
import { stopAll } from './fleet.js';
import { accountsYaml, rowKey } from './accounts-key-setup.js';
import { chatBody } from './payloads.js';
import { runJson } from './run-process.js';

const seconds = Number(process.argv[2] ?? 15);
const staticKey = process.argv[3] === 'static';
const services = await startChild('services-process.js');
const upstream = await startChild('upstream-process.js');
const { redis, postgres } = services.ready;
const gateway = await startChild(
  'gateway-process.js',
  [upstream.ready.url, staticKey ? '' : accountsYaml({ redis, postgres })],
  process.env.BENCH_PROF_FLAGS?.split(' ') ?? ['--cpu-prof', '--cpu-prof-dir=bench/results/profiles'],
);
const key = await rowKey(gateway.ready.url, staticKey);
const load = {
  url: gateway.ready.url,
  method: 'POST',
  path: '/v1/chat/completions',
  body: chatBody,
  connections: 50,
  key,
};
const warm = await runJson('load-process.js', { ...load, duration: 3 });
const result = await runJson('load-process.js', { ...load, duration: seconds });
console.log(JSON.stringify({ ...result, requestsWithWarmup: warm.total + result.total }));
await stopAll([gateway, upstream, services]);
