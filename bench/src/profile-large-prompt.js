// `node bench/src/profile-large-prompt.js [requests] [bytes]`: the CPU time each server spends on one streamed chat
// with a large prompt (the head-of-line row's 400 KB by default), Switchyard beside the Express floor, one request at a
// time after a warm-up, in 5 alternating rounds; with BENCH_CPU_PROF=1 also a --cpu-prof profile of Switchyard in bench/results/profiles/.
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
  // Alternating rounds (A B C, C B A, ...) of `requests / 5` each, so that a change in the machine's load hits each alike.
  const cpu = Object.fromEntries(names.map((name) => [name, 0]));
  const wall = Object.fromEntries(names.map((name) => [name, 0]));
  const perRound = Math.ceil(requests / 5);
  for (let round = 0; round < 5; round++) {
    for (const name of round % 2 === 1 ? [...names].reverse() : names) {
      const before = await askCpu(fleet.processes[name].child);
      const start = performance.now();
      for (let i = 0; i < perRound; i++) await send(fleet.urls[name]);
      wall[name] += performance.now() - start;
      cpu[name] += (await askCpu(fleet.processes[name].child)) - before;
    }
  }
  const perRequest = Object.fromEntries(
    names.map((name) => [
      name,
      { cpuUs: Math.round(cpu[name] / (5 * perRound)), wallMs: +(wall[name] / (5 * perRound)).toFixed(2) },
    ]),
  );
  console.log(JSON.stringify(perRequest));
} finally {
  await dispatcher.close();
  await fleet.stop();
}
