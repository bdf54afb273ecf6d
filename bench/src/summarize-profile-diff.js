// `node bench/src/summarize-profile-diff.js <a.cpuprofile> <a requests> <b.cpuprofile> <b requests> [rows]`: self time
// per request (us) of two --cpu-prof profiles (e.g. `profile-accounts.js` of the static key, then of the virtual key),
// by package and by function, with what the second adds over the first, largest first. Only the measured load is
// counted: the samples after the profile's last idle gap of 250 ms or more (the gap between the warm-up and the
// measured run), so the requests are each run's `total`; time is summed from the sample intervals, `(idle)` left out.
import { readFileSync } from 'node:fs';

const [fileA, requestsA, fileB, requestsB, rowsArg] = process.argv.slice(2);

/** The index of the first sample after the profile's last run of idle samples lasting 250 ms or more. */
function measuredStart(profile, byId) {
  let start = 0;
  let idleSince = -1;
  let idleUs = 0;
  profile.samples.forEach((id, i) => {
    if (byId.get(id).callFrame.functionName !== '(idle)') {
      if (idleUs >= 250_000) start = i;
      idleSince = -1;
      idleUs = 0;
      return;
    }
    if (idleSince < 0) idleSince = i;
    idleUs += profile.timeDeltas[i];
  });
  return start;
}

/** Microseconds of self time per request, by package and by function, of one profile. */
function selfTimes(file, requests) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byPackage = new Map();
  const byFunction = new Map();
  let busy = 0;
  const start = measuredStart(profile, byId);
  profile.samples.forEach((id, i) => {
    const { callFrame } = byId.get(id);
    if (i < start || callFrame.functionName === '(idle)') return;
    const us = profile.timeDeltas[i] / Number(requests);
    busy += us;
    const url = callFrame.url;
    const pkg = url.includes('node_modules/.pnpm/')
      ? url.replace(/^.*node_modules\/\.pnpm\/([^/]+)\/.*$/, '$1')
      : url.replace(/^file:\/\/.*?\/(packages|apps)\/([^/]+)\/.*$/, '$1/$2') || callFrame.functionName;
    const fn = `${callFrame.functionName || '(anonymous)'} ${url.replace(/^.*node_modules\/\.pnpm\//, '').replace(/^file:\/\/.*?\/(packages|apps)\//, '$1/')}:${callFrame.lineNumber + 1}`;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
  return { busy, byPackage, byFunction };
}

const a = selfTimes(fileA, requestsA);
const b = selfTimes(fileB, requestsB);
const rows = Number(rowsArg ?? 30);
const f = (n) => n.toFixed(1).padStart(7);
console.log(`busy us/request: ${f(a.busy)} -> ${f(b.busy)}  (${f(b.busy - a.busy).trim()})`);
for (const what of ['byPackage', 'byFunction']) {
  const keys = new Set([...a[what].keys(), ...b[what].keys()]);
  const diff = [...keys].map((k) => [k, a[what].get(k) ?? 0, b[what].get(k) ?? 0]);
  diff.sort((x, y) => y[2] - y[1] - (x[2] - x[1]));
  console.log(`\n${what} (us/request: first, second, added)`);
  for (const [k, x, y] of diff.slice(0, rows)) console.log(`${f(x)} ${f(y)} ${f(y - x)}  ${k}`);
}
