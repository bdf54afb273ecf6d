// `pnpm bench [--quick] [--rows a,b] [--list]`: the rows of issue #34 (see rows/index.js and bench/README.md), each
// on fresh processes (mock upstream, bare proxy, Express floor, Switchyard as each row needs), side by side in
// alternating rounds. Prints every target with its measured figure and pass/fail, and writes everything to
// bench/results/<date>T<time>.json. `--quick` runs short rounds (and a 1-minute soak) for development.
// Environment: BENCH_DURATION (s per load round), BENCH_ROUNDS, BENCH_WARMUP (s of unmeasured load on fresh
// processes), BENCH_LATENCY_REQUESTS (requests per latency round), BENCH_SOAK_MINUTES, BENCH_FD_LIMIT,
// BENCH_CPU_PROF=1 (a --cpu-prof profile of each Switchyard process in bench/results/profiles/), BENCH_SERVER_FLAGS
// (Node flags for every server process), BENCH_TRACE_ROUNDS=1 (print each side-by-side round's start and end).
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ROWS } from './rows/index.js';
import { targetsReport } from './targets-report.js';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean' }, rows: { type: 'string' }, list: { type: 'boolean' } },
});
if (args.list) {
  for (const row of ROWS) console.log(`${row.name.padEnd(14)} ${row.title}`);
  process.exit(0);
}
const quick = !!args.quick;
const wanted = args.rows?.split(',');
const unknown = wanted?.filter((name) => !ROWS.some((row) => row.name === name)) ?? [];
if (unknown.length) {
  console.error(`bench: unknown row(s) ${unknown.join(', ')}; see --list`);
  process.exit(2);
}
const env = (name, full, fast) => Number(process.env[name] ?? (quick ? fast : full));
const settings = {
  quick,
  duration: env('BENCH_DURATION', 5, 2),
  rounds: env('BENCH_ROUNDS', 3, 2),
  warmup: env('BENCH_WARMUP', 8, 2),
  rewarm: env('BENCH_REWARM', 1, 1),
  warmupRequests: env('BENCH_WARMUP_REQUESTS', 20000, 0),
  memoryReducer: env('BENCH_MEMORY_REDUCER', 0, 0) === 1,
  latencyRequests: env('BENCH_LATENCY_REQUESTS', 1500, 300),
};
const rows = ROWS.filter((row) => !wanted || wanted.includes(row.name));
const results = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryBytes: totalmem(), node: process.version },
  settings,
  loadAverageAtStart: loadavg(),
  rows: {},
};
console.error(
  `bench: ${rows.map((r) => r.name).join(', ')} (${quick ? 'quick' : 'full'}: ${JSON.stringify(settings)})`,
);
for (const row of rows) {
  const started = Date.now();
  console.error(`\n[${row.name}] ${row.title}`);
  const ctx = { ...settings, log: (line) => console.error(`  ${line}`) };
  try {
    results.rows[row.name] = await row.run(ctx);
  } catch (error) {
    console.error(`  failed: ${error.stack ?? error}`);
    results.rows[row.name] = { error: String(error.message ?? error), checks: [] };
  }
  results.rows[row.name].seconds = (Date.now() - started) / 1000;
}
results.loadAverageAtEnd = loadavg();

const dir = fileURLToPath(new URL('../results/', import.meta.url));
await mkdir(dir, { recursive: true });
const file = `${dir}${results.date.slice(0, 19).replaceAll(':', '-')}.json`;
await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(targetsReport(results, rows));
console.log(`\nResults: ${file}`);
process.exit(0);
