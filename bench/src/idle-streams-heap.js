// `node bench/src/idle-streams-heap.js [streams]`: heap snapshots of a fresh Switchyard before and while it holds
// `streams` (default 2,000) idle streamed chats (the `idle-streams` row's streams), written to the current folder as
// `Heap.*.heapsnapshot` (Node's `--heapsnapshot-signal`); then `node bench/src/summarize-heap-diff.js <before> <after>
// <streams>` lists what each stream added, by object type and name.
import { fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { askRss } from './child.js';
import { startFleet } from './fleet.js';

const count = Number(process.argv[2] ?? 2000);
const fleet = await startFleet(['switchyard'], { gatewayExecArgv: ['--heapsnapshot-signal=SIGUSR2'] });
const gateway = fleet.processes.switchyard.child;
const snapshots = () => readdirSync('.').filter((name) => name.endsWith('.heapsnapshot'));

/** Asks the gateway for a snapshot and waits until its file has appeared and had time to be written. */
async function snapshot() {
  const before = snapshots().length;
  gateway.kill('SIGUSR2');
  while (snapshots().length === before) await new Promise((resolve) => setTimeout(resolve, 200));
  await new Promise((resolve) => setTimeout(resolve, 3000));
}

const MiB = 1024 * 1024;
console.log(`RSS before: ${((await askRss(gateway)).rss / MiB).toFixed(0)} MiB`);
await snapshot();
const holder = fork(fileURLToPath(new URL('./hold-streams-process.js', import.meta.url)), [
  fleet.urls.switchyard,
  String(count),
]);
const held = await new Promise((resolve) => holder.once('message', resolve));
console.log(`held ${held.open} (${held.failed} failed), RSS ${((await askRss(gateway)).rss / MiB).toFixed(0)} MiB`);
await snapshot();
holder.send('stop');
await fleet.stop();
console.log(snapshots().join('\n'));
