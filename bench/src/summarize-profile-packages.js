// `node bench/src/summarize-profile-packages.js <file.cpuprofile>`: self time per package/module (share of busy samples).
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let busy = 0;
for (const id of profile.samples) {
  const { callFrame } = byId.get(id);
  if (callFrame.functionName === '(idle)') continue;
  busy++;
  const url = callFrame.url;
  const key = url.includes('node_modules/.pnpm/')
    ? url.replace(/^.*node_modules\/\.pnpm\/([^/]+)\/.*$/, '$1')
    : url.replace(/^file:\/\/.*?\/(packages|apps)\/([^/]+)\/.*$/, '$1/$2') || callFrame.functionName;
  self.set(key, (self.get(key) ?? 0) + 1);
}
for (const [key, count] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 30)))
  console.log(`${((100 * count) / busy).toFixed(1).padStart(5)} %  ${key}`);
