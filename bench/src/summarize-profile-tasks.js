// `node bench/src/summarize-profile-tasks.js <file.cpuprofile> [top] [minMs]`: the event loop's longest tasks in a
// --cpu-prof profile (best taken with BENCH_CPU_PROF_INTERVAL=100): a task is a run of consecutive samples that are not
// `(idle)`, its length the sum of their time deltas (wall time: on a loaded machine it includes time the thread waited
// for a core). Prints the count of tasks of at least `minMs` (default 1) ms, the `top` (default 10) longest with the
// functions holding most of each (self time), the percentiles of their lengths, and the self time of every function summed over tasks of `minMs` or more.
import { readFileSync } from 'node:fs';

const [file, topArg, minArg] = process.argv.slice(2);
const top = Number(topArg ?? 10);
const minMs = Number(minArg ?? 1);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const nameOf = ({ callFrame }) =>
  `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*node_modules\/\.pnpm\//, '').replace(/^file:\/\/.*?\/(packages|apps)\//, '$1/')}:${callFrame.lineNumber + 1}`;

const tasks = [];
let current;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  // The delta of sample i+1 is the time sample i stood for.
  const us = profile.timeDeltas[i + 1] ?? 0;
  if (node.callFrame.functionName === '(idle)') {
    if (current) tasks.push(current);
    current = undefined;
    continue;
  }
  current ??= { us: 0, self: new Map() };
  current.us += us;
  const key = nameOf(node);
  current.self.set(key, (current.self.get(key) ?? 0) + us);
}
if (current) tasks.push(current);

const long = tasks.filter((t) => t.us >= minMs * 1000).sort((a, b) => b.us - a.us);
const seconds = (profile.endTime - profile.startTime) / 1e6;
console.log(
  `${tasks.length} tasks in ${seconds.toFixed(1)} s; ${long.length} of ${minMs} ms or more, together ${(long.reduce((s, t) => s + t.us, 0) / 1000).toFixed(1)} ms`,
);
const ms = (us) => (us / 1000).toFixed(2).padStart(7);
const sorted = long.map((t) => t.us).sort((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
console.log(`their length: p50 ${ms(pct(50)).trim()} ms, p90 ${ms(pct(90)).trim()} ms, p99 ${ms(pct(99)).trim()} ms`);
const heaviest = (self, n) => [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
for (const task of long.slice(0, top)) {
  console.log(
    `${ms(task.us)} ms: ${heaviest(task.self, 4)
      .map(([k, us]) => `${k} ${ms(us).trim()}`)
      .join('; ')}`,
  );
}
const sum = new Map();
for (const task of long) for (const [k, us] of task.self) sum.set(k, (sum.get(k) ?? 0) + us);
console.log(`self time in tasks of ${minMs} ms or more:`);
for (const [k, us] of heaviest(sum, 25)) console.log(`${ms(us)} ms  ${k}`);
