// `node bench/src/summarize-profile.js <file.cpuprofile>`: the functions with the most self time, to find hot spots.
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const total = profile.samples.length;
for (const id of profile.samples) {
  const { callFrame } = byId.get(id);
  const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*node_modules\/\.pnpm\//, '').replace(/^file:\/\/.*?\/(packages|apps)\//, '$1/')}:${callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + 1);
}
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 40));
for (const [key, count] of rows) console.log(`${((100 * count) / total).toFixed(1).padStart(5)} %  ${key}`);
