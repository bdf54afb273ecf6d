// `node bench/src/profile-stream.js [seconds] [body]`: a --cpu-prof profile of a fresh Switchyard under 50 connections
// of streamed chat (100 chunks) only, written to bench/results/profiles/ (for `summarize-profile*.js`).
import { startChild } from './child.js';
import { stopAll } from './fleet.js';
import { BENCH_KEY, streamBody } from './payloads.js';
import { runJson } from './run-process.js';

const seconds = Number(process.argv[2] ?? 15);
const upstream = await startChild('upstream-process.js');
await runJson('load-process.js', {
  url: upstream.ready.url,
  method: 'GET',
  path: '/v1/models',
  connections: 1,
  duration: 1,
  key: BENCH_KEY,
});
const gateway = await startChild(
  'gateway-process.js',
  [upstream.ready.url],
  ['--cpu-prof', '--cpu-prof-dir=bench/results/profiles'],
);
const load = {
  url: gateway.ready.url,
  method: 'POST',
  path: '/v1/chat/completions',
  body: process.argv[3] ?? streamBody,
  connections: 50,
  key: BENCH_KEY,
};
await runJson('load-process.js', { ...load, duration: 3 });
const result = await runJson('load-process.js', { ...load, duration: seconds });
console.log(JSON.stringify(result));
await stopAll([gateway, upstream]);
