// `node bench/src/summarize-perf-diff.js <a.data> <b.data> [rows] [sym|dso]`: two on-CPU profiles of
// `perf-servers.js` side by side, in microseconds of CPU per request (samples x the 0.5 ms sampling period / the
// requests in the window, read from the `.json` beside each file): the totals, then the symbols (or binaries) whose
// time differs most, b's excess first, then a's. Build paths and line suffixes are stripped from JavaScript symbols so
// that two builds' functions line up.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [a, b, rows = '30', sort = 'sym'] = process.argv.slice(2);
const SAMPLE_US = 500; // perf-servers.js records at 2,000 samples a second

/** Samples per symbol of one profile (`perf report -n`), and the requests in its window. */
function load(path) {
  const out = execFileSync(
    'perf',
    [
      'report',
      '-i',
      path,
      '--no-children',
      '-n',
      '--sort',
      sort,
      '-q',
      '--stdio',
      '-g',
      'none',
      '--percent-limit',
      '0',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const { rps, seconds } = JSON.parse(readFileSync(path.replace(/\.data$/, '.json'), 'utf8'));
  const samples = new Map();
  for (const line of out.split('\n')) {
    const match = /^\s*[\d.]+%\s+(\d+)\s+(?:\[.\]\s+)?(.*?)\s*$/.exec(line);
    if (!match) continue;
    const name = match[2]
      .replace(/(file:\/\/)?\/\S*?\/(packages|apps|node_modules)\//, '$2/')
      .replace(/node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
      .replace(/chunk-[A-Z0-9]+\.js/, 'chunk.js')
      .replace(/^\[JIT\] tid \d+$/, '[JIT]')
      .replace(/:\d+:\d+$/, '');
    samples.set(name, (samples.get(name) ?? 0) + Number(match[1]));
  }
  return { samples, requests: rps * seconds };
}

const left = load(a);
const right = load(b);
const usPerRequest = (side, name) => ((side.samples.get(name) ?? 0) * SAMPLE_US) / side.requests;
const total = (side) => [...side.samples.values()].reduce((sum, n) => sum + n, 0);
const totalA = (total(left) * SAMPLE_US) / left.requests;
const totalB = (total(right) * SAMPLE_US) / right.requests;
console.log(
  `on-CPU us per request: ${totalA.toFixed(1)} (a) ${totalB.toFixed(1)} (b), b / a ${(totalB / totalA).toFixed(3)}`,
);
const names = [...new Set([...left.samples.keys(), ...right.samples.keys()])].map((name) => ({
  name,
  a: usPerRequest(left, name),
  b: usPerRequest(right, name),
}));
names.sort((x, y) => y.b - y.a - (x.b - x.a));
const line = ({ name, a: x, b: y }) =>
  `${x.toFixed(1).padStart(8)} ${y.toFixed(1).padStart(8)} ${(y - x >= 0 ? '+' : '') + (y - x).toFixed(1).padStart(7)}  ${name.slice(0, 110)}`;
const count = Number(rows);
for (const row of names.slice(0, count)) console.log(line(row));
console.log('...');
for (const row of names.slice(-Math.min(count, Math.max(0, names.length - count))).slice(-10)) console.log(line(row));
