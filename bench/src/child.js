// Helpers for the benchmark's child processes: each process prints one JSON line `{"ready": {...}}` when it is up,
// and answers IPC messages {type:"rss"} with its current and peak resident set size (bytes), {type:"cpu"}
// with its CPU time and {type:"heap"} with its heap after a full collection.
import { fork } from 'node:child_process';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/** Starts `script` (in this folder) as a child process; resolves with the process and the payload it announced. */
export function startChild(script, args = [], execArgv = []) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    child.on('message', (message) => {
      if (message?.ready) resolve({ child, ready: message.ready });
    });
  });
}

/**
 * Sends a child `{type}` and resolves with the first message it sends back that holds `field` (the answers of
 * {@link serveChild}).
 */
function askChild(child, type, field) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.[field] !== undefined) {
        child.off('message', onMessage);
        resolve(message);
      }
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

/** Asks a child for `{rss, peakRss}` (bytes). */
export function askRss(child) {
  return askChild(child, 'rss', 'rss');
}

/**
 * Asks a child for the CPU time its process has used so far (user + system, microseconds). CPU time per request is
 * the figure that stays meaningful when other work shares the cores (req/s then measures the machine's load).
 */
export async function askCpu(child) {
  return (await askChild(child, 'cpu', 'cpuUs')).cpuUs;
}

/**
 * Asks a child for its CPU time so far (`cpuUs`, as {@link askCpu}; `systemUs` the part of it in the kernel) and the
 * main-thread pauses of its garbage collections so far (`gc`: `{minorMs, majorMs, incrementalMs, count}`, from
 * `node:perf_hooks`' `gc` entries, by kind). V8's concurrent marking and sweeping run on helper threads: they are in
 * `cpuUs`, not in `gc`.
 */
export function askUsage(child) {
  return askChild(child, 'cpu', 'cpuUs');
}

/** Asks a child for `{heapUsed, rss, gc}` (bytes) after a full garbage collection (the child runs with --expose-gc). */
export function askHeap(child) {
  return askChild(child, 'heap', 'heapUsed');
}

/** In a child: samples RSS every 100 ms, answers RSS and CPU requests, and announces readiness. */
export function serveChild(ready) {
  let peakRss = process.memoryUsage.rss();
  const gc = { minorMs: 0, majorMs: 0, incrementalMs: 0, count: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      const kind = entry.detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.majorMs += entry.duration;
      else if (kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) gc.incrementalMs += entry.duration;
      else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.minorMs += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 100).unref();
  process.on('message', (message) => {
    if (message?.type === 'rss') {
      const rss = process.memoryUsage.rss();
      peakRss = Math.max(peakRss, rss);
      process.send({ rss, peakRss });
    }
    if (message?.type === 'reset-peak') peakRss = process.memoryUsage.rss();
    if (message?.type === 'heap') {
      // Heap after a full collection (needs --expose-gc; without it the heap as it stands).
      globalThis.gc?.();
      process.send({ heapUsed: process.memoryUsage().heapUsed, rss: process.memoryUsage.rss(), gc: !!globalThis.gc });
    }
    if (message?.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send({ cpuUs: user + system, systemUs: system, gc });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ ready });
}
