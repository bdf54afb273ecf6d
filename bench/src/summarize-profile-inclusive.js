// `node bench/src/summarize-profile-inclusive.js <file.cpuprofile> [n]`: functions by inclusive time (share of busy samples).
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\/\.pnpm\//, '').replace(/^file:\/\/.*?\/(packages|apps)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const inclusive = new Map();
let busy = 0;
for (const id of profile.samples) {
  const leaf = byId.get(id);
  if (leaf.callFrame.functionName === '(idle)') continue;
  busy++;
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = name(byId.get(cur));
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
  }
}
const rows = [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 60));
for (const [key, count] of rows) console.log(`${((100 * count) / busy).toFixed(1).padStart(5)} %  ${key}`);
