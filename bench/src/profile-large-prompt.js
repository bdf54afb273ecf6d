// `node bench/src/profile-large-prompt.js [requests] [bytes]`: the CPU time each server spends on one streamed chat
// with a large prompt (the head-of-line row's 400 KB by default), Switchyard beside the Express floor, one request at a
// time after a warm-up; with BENCH_CPU_PROF=1 also a --cpu-prof profile of Switchyard in bench/results/profiles/.
import { Agent, request } from 'undici';
import { askCpu } from './child.js';
import { startFleet, withBase } from './fleet.js';
import { BENCH_KEY, largeStreamBody } from './payloads.js';

const requests = Number(process.argv[2] ?? 200);
const body = largeStreamBody(Number(process.argv[3] ?? 400 * 1024));
const fleet = await startFleet(withBase(['floor', 'switchyard']));
const dispatcher = new Agent({ connections: null, pipelining: 0 });

async function send(url) {
  const response = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
    body,
    dispatcher,
  });
  for await (const _chunk of response.body);
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
}

try {
  const names = Object.keys(fleet.urls).filter((name) => name !== 'direct');
  for (const name of names) for (let i = 0; i < 20; i++) await send(fleet.urls[name]);
  const perRequest = {};
  for (const name of names) {
    const before = await askCpu(fleet.processes[name].child);
    const start = performance.now();
    for (let i = 0; i < requests; i++) await send(fleet.urls[name]);
    const wall = performance.now() - start;
    const cpu = (await askCpu(fleet.processes[name].child)) - before;
    perRequest[name] = { cpuUs: Math.round(cpu / requests), wallMs: +(wall / requests).toFixed(2) };
  }
  console.log(JSON.stringify(perRequest));
} finally {
  await dispatcher.close();
  await fleet.stop();
}
