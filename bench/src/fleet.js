// Fresh server processes for one row of `pnpm bench`: a mock upstream (`direct`), the bare proxy, the Express floor
// and Switchyard, each its own process, all in front of that one upstream.
import { startChild } from './child.js';

const SCRIPTS = {
  proxy: 'bare-proxy-process.js',
  floor: 'express-floor-process.js',
  switchyard: 'gateway-process.js',
  // BENCH_BASE=<another checkout, built>: its Switchyard beside this one, for the before/after of a change.
  base: `${process.env.BENCH_BASE}/bench/src/gateway-process.js`,
};

/** The servers a row compares: those named, with `base` after `switchyard` when BENCH_BASE is set. */
export function withBase(names) {
  return process.env.BENCH_BASE ? [...names, 'base'] : names;
}

/**
 * Starts a new mock upstream and the servers named in `names` (`proxy`, `floor`, `switchyard`, `base`) in front of it.
 * `gatewayYaml` is extra YAML for Switchyard's config, `gatewayExecArgv` its Node flags (BENCH_CPU_PROF adds
 * `--cpu-prof`), `serverExecArgv` Node flags of every server alike (e.g. {@link steadyFlags}). Resolves with
 * `{ processes: {direct, ...}, urls: {direct, ...}, stop() }`.
 */
export async function startFleet(names, { gatewayYaml, gatewayExecArgv = [], serverExecArgv = [] } = {}) {
  const direct = await startChild('upstream-process.js');
  const processes = { direct };
  for (const name of names) {
    const args = [
      direct.ready.url,
      ...((name === 'switchyard' || name === 'base') && gatewayYaml ? [gatewayYaml] : []),
    ];
    const execArgv = [
      ...(name === 'switchyard' || name === 'base' ? [...gatewayExecArgv, ...profileFlags()] : []),
      ...serverExecArgv,
      ...serverFlags(),
    ];
    processes[name] = await startChild(SCRIPTS[name], args, execArgv);
  }
  const urls = Object.fromEntries(Object.entries(processes).map(([name, p]) => [name, p.ready.url]));
  return { processes, urls, stop: () => stopAll(Object.values(processes)) };
}

/**
 * Node flags for every server process of a fleet (proxy, floor, Switchyard, base) from BENCH_SERVER_FLAGS (split on
 * spaces), for an experiment that must treat them alike, e.g. `--trace-gc` or a V8 heap flag. None when unset.
 */
export function serverFlags() {
  return (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
}

/**
 * Node flags of every server process of a side-by-side CPU row (`compareSetups`): `--no-memory-reducer` unless
 * `ctx.memoryReducer` (BENCH_MEMORY_REDUCER=1). Alternating rounds leave each server idle for 10-30 s while the others
 * run; V8's memory reducer, made for idle processes, then shrinks its heap, and the next round pays for the regrowth
 * with more collections at random (single rounds up to twice a server's other rounds). A server under steady load,
 * what the rows measure, never goes idle, so its memory reducer does not run. Memory rows keep V8's default.
 * @see https://chromium.googlesource.com/v8/v8/+/refs/heads/main/src/heap/memory-reducer.h
 */
export function steadyFlags(ctx) {
  return ctx.memoryReducer ? [] : ['--no-memory-reducer'];
}

/**
 * `--cpu-prof` flags for Switchyard's process when BENCH_CPU_PROF is set; BENCH_CPU_PROF_INTERVAL sets the sampling
 * interval in microseconds (V8's default 1,000), e.g. 100 to time the event loop's tasks with
 * `summarize-profile-tasks.js`.
 */
export function profileFlags() {
  if (!process.env.BENCH_CPU_PROF) return [];
  const interval = process.env.BENCH_CPU_PROF_INTERVAL;
  return [
    '--cpu-prof',
    '--cpu-prof-dir=bench/results/profiles',
    ...(interval ? [`--cpu-prof-interval=${interval}`] : []),
  ];
}

/** Stops bench child processes (SIGTERM, so that a profiled gateway writes its profile) and waits for them to exit. */
export async function stopAll(children) {
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.removeAllListeners('exit');
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
}
