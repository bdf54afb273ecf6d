// Side-by-side rows of one run (one process vs --workers 2, limiter kinds, metrics on and off): the same load on each
// setup in turn, several rounds, the order reversed every other round (A B, B A, ...), so that a change in the
// machine's load while they run hits every setup alike and the ratio between them stays meaningful.
import { askUsage } from './child.js';
import { runJson } from './run-process.js';

/**
 * Runs `load` (a load-process.js options object without `url`/`key`) against every setup `{label, url, key, child?}`
 * `rounds` times, after an unmeasured warm-up of each: `warmupSeconds` of load, then more in runs of
 * {@link WARMUP_STEP_SECONDS} until the setup has answered `warmupRequests` in all (V8 compiles a server's hot path after
 * a number of requests, not of seconds: a setup at half the req/s of another needs twice the time; at most
 * {@link MAX_WARMUP_SECONDS}). With `rewarmSeconds`, each measured round of a setup comes right after that much
 * unmeasured load on it (a server that sat idle while the others ran starts its round with cold caches and, unless
 * started with `steadyFlags` of fleet.js, a heap V8's memory reducer shrank; neither is what a server under steady
 * load has). Resolves with one row per setup: mean req/s over the rounds (`rps`, with each round's in `runs`), the
 * p50/p99 latency (ms) of its median round, errors and non-2xx answers summed, the warm-up's requests
 * (`warmupRequests`), and with `child` (a bench child process that answers CPU requests) the CPU time per request
 * (`cpuUsPerRequest`, microseconds, over all rounds; each round's in `cpuRuns`, the kernel's part of it in
 * `systemRuns`) and each round's garbage-collection pauses per request (`gcRuns`: `{minorUs, majorUs, incrementalUs,
 * count}` per request, main-thread pauses only: see `askUsage`), which tell whether a costly round was the
 * collector's.
 */
export async function compareSetups(
  setups,
  load,
  rounds = 2,
  warmupSeconds = 1,
  { rewarmSeconds = 0, warmupRequests = 0 } = {},
) {
  const results = setups.map(() => []);
  const cpu = setups.map(() => ({ us: 0, requests: 0, rounds: [], system: [], gc: [] }));
  // An unmeasured run first, so that a process started just now is as warm (JIT) as one that served the others.
  const warmed = [];
  for (const { url, key } of setups) warmed.push(await warmUp({ ...load, url, key }, warmupSeconds, warmupRequests));
  for (let round = 0; round < rounds; round++) {
    const order = setups.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const { url, key, child } = setups[i];
      if (rewarmSeconds > 0) await runJson('load-process.js', { ...load, duration: rewarmSeconds, url, key });
      const before = child && (await askUsage(child));
      if (process.env.BENCH_TRACE_ROUNDS) console.log(`round ${round} ${setups[i].label} start ${Date.now()}`);
      const result = await runJson('load-process.js', { ...load, url, key });
      if (process.env.BENCH_TRACE_ROUNDS) console.log(`round ${round} ${setups[i].label} end ${Date.now()}`);
      if (child) {
        const after = await askUsage(child);
        const us = after.cpuUs - before.cpuUs;
        const requests = Math.max(1, result.total);
        cpu[i].us += us;
        cpu[i].requests += result.total;
        cpu[i].rounds.push(us / requests);
        cpu[i].system.push((after.systemUs - before.systemUs) / requests);
        cpu[i].gc.push(gcPerRequest(before.gc, after.gc, requests));
      }
      results[i].push(result);
    }
  }
  return setups.map(({ label }, i) => {
    const runs = results[i];
    const median = [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];
    const row = {
      label,
      rps: runs.reduce((sum, r) => sum + r.rps, 0) / runs.length,
      runs: runs.map((r) => r.rps),
      p50: median.p50,
      p99: median.p99,
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
      warmupRequests: warmed[i],
    };
    if (setups[i].child) {
      row.cpuUsPerRequest = cpu[i].us / Math.max(1, cpu[i].requests);
      row.cpuRuns = cpu[i].rounds;
      row.systemRuns = cpu[i].system;
      row.gcRuns = cpu[i].gc;
    }
    return row;
  });
}

/** Seconds per extra warm-up run, and the longest warm-up of one setup (see {@link compareSetups}). */
const WARMUP_STEP_SECONDS = 2;
const MAX_WARMUP_SECONDS = 30;

/**
 * Unmeasured load on one setup (`load` with its `url` and `key`): `seconds`, then runs of {@link WARMUP_STEP_SECONDS}
 * until `requests` were answered in all or {@link MAX_WARMUP_SECONDS} have passed. Resolves with the requests answered.
 */
export async function warmUp(load, seconds, requests) {
  if (seconds <= 0) return 0;
  let answered = (await runJson('load-process.js', { ...load, duration: seconds })).total;
  for (let spent = seconds; answered < requests && spent < MAX_WARMUP_SECONDS; spent += WARMUP_STEP_SECONDS)
    answered += (await runJson('load-process.js', { ...load, duration: WARMUP_STEP_SECONDS })).total;
  return answered;
}

/** The collector's pauses between two `gc` readings of `askUsage`, per request (microseconds; `count` per request). */
function gcPerRequest(before, after, requests) {
  const per = (key) => (1000 * (after[key] - before[key])) / requests;
  return {
    minorUs: per('minorMs'),
    majorUs: per('majorMs'),
    incrementalUs: per('incrementalMs'),
    count: (after.count - before.count) / requests,
  };
}

/** Each round's garbage-collection pauses per request as `minor+major+incremental us`, rounds joined by `, `. */
export function gcText(gcRuns) {
  return gcRuns
    .map((g) => `${g.minorUs.toFixed(0)}+${g.majorUs.toFixed(0)}+${g.incrementalUs.toFixed(0)} us`)
    .join(', ');
}
